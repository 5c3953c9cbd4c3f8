! fric.f90: an Abaqus/Standard FRIC-shaped friction user subroutine calling
! the friction library's update with its consistent tangent through
! iso_c_binding, and a driver that runs an implicit (Newton) analysis.
!
! Abaqus/Standard calls FRIC at every contact point in every Newton
! iteration of an increment, with the state STATEV as it was at the start
! of the increment and the trial slip increment DSLIP of this iteration, and
! expects the frictional stress TAU back together with its derivatives
! DDTDDG = dTAU/dDSLIP and DDTDDP = dTAU/dPRESS: without them Newton's
! method converges slowly or not at all. The argument list below is FRIC's;
! this example uses LM, TAU, DDTDDG, DDTDDP, DSLIP, STATEV, PRESS, KSTEP,
! KINC, DTIME, NFDIR and NSTATV (NFDIR = 1 calls the 1-D update, NFDIR = 2
! the 2-D one), and leaves the others as FRIC receives them.
!
! The library's force opposes the slip and grows with it while sticking
! (F = kt * slip for Jenkins), as Abaqus' TAU does; TAU = PRESS * F, and
! with the contact pressure as the normal load the model's force parameter
! is the friction coefficient.
!
! Build (from crates/friction-capi, after `cargo build -p friction-capi`):
!   gfortran -O2 examples/fortran/fric.f90 ../../target/debug/libfriction_capi.a \
!            -lpthread -ldl -lm -o fric
module friction_c
  use iso_c_binding
  implicit none
  interface
    function friction_model_new(model_id, params_toml) bind(c, name="friction_model_new")
      import :: c_ptr, c_char
      character(kind=c_char), dimension(*), intent(in) :: model_id, params_toml
      type(c_ptr) :: friction_model_new
    end function
    function friction_model_state_len(m) bind(c, name="friction_model_state_len")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: m
      integer(c_size_t) :: friction_model_state_len
    end function
    function friction_model_state_len_2d(m) bind(c, name="friction_model_state_len_2d")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: m
      integer(c_size_t) :: friction_model_state_len_2d
    end function
    function friction_model_init(m, n, state) bind(c, name="friction_model_init")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), dimension(*) :: state
      integer(c_int) :: friction_model_init
    end function
    function friction_model_init_2d(m, n, state) bind(c, name="friction_model_init_2d")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), dimension(*) :: state
      integer(c_int) :: friction_model_init_2d
    end function
    ! the update with its consistent tangent (dforce_dslip, dforce_dnormal:
    ! n doubles each, or c_null_ptr when not wanted)
    function friction_model_update_tangent(m, n, dt, slip, normal, state, force, dforce_dslip, dforce_dnormal) &
        bind(c, name="friction_model_update_tangent")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), value :: dt
      real(c_double), dimension(*), intent(in) :: slip, normal
      real(c_double), dimension(*) :: state, force, dforce_dslip, dforce_dnormal
      integer(c_int) :: friction_model_update_tangent
    end function
    ! the 2-D update with its tangent (dforce_dslip: 4 doubles per contact,
    ! row-major dFx/dsx, dFx/dsy, dFy/dsx, dFy/dsy; dforce_dnormal: 2)
    function friction_model_update_2d_tangent(m, n, dt, slip, normal, state, force, dforce_dslip, dforce_dnormal) &
        bind(c, name="friction_model_update_2d_tangent")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), value :: dt
      real(c_double), dimension(*), intent(in) :: slip, normal
      real(c_double), dimension(*) :: state, force, dforce_dslip, dforce_dnormal
      integer(c_int) :: friction_model_update_2d_tangent
    end function
    subroutine friction_model_free(m) bind(c, name="friction_model_free")
      import :: c_ptr
      type(c_ptr), value :: m
    end subroutine
    function friction_last_error() bind(c, name="friction_last_error")
      import :: c_ptr
      type(c_ptr) :: friction_last_error
    end function
  end interface

  ! the model shared by every call of FRIC (created on the first one; a
  ! real subroutine would read the model id and parameters from PROPS)
  type(c_ptr), save :: fric_model = c_null_ptr
  character(len=*), parameter :: fric_model_id = "jenkins"
  ! kt in Pa/m of slip per unit pressure; fs = 0.3 is the friction coefficient
  character(len=*), parameter :: fric_params = "kt = 1e5" // c_new_line // "fs = 0.3"

contains

  function last_error() result(msg)
    character(len=:), allocatable :: msg
    character(kind=c_char), dimension(:), pointer :: chars
    integer :: k
    call c_f_pointer(friction_last_error(), chars, [4096])
    k = 0
    do while (chars(k + 1) /= c_null_char)
      k = k + 1
    end do
    allocate(character(len=k) :: msg)
    msg = transfer(chars(1:k), msg)
  end function

  subroutine check(code, what)
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: what
    if (code /= 0) then
      write(*, '(a, a, i0, a, a)') what, ' failed (', code, '): ', last_error()
      error stop 1
    end if
  end subroutine

  subroutine fric_setup()
    if (.not. c_associated(fric_model)) then
      fric_model = friction_model_new(fric_model_id // c_null_char, fric_params // c_null_char)
      if (.not. c_associated(fric_model)) then
        write(*, '(a, a)') 'friction_model_new failed: ', last_error()
        error stop 1
      end if
    end if
  end subroutine

  ! State values per contact point the model needs for NFDIR directions.
  function fric_state_len(nfdir) result(n)
    integer, intent(in) :: nfdir
    integer :: n
    call fric_setup()
    if (nfdir == 1) then
      n = int(friction_model_state_len(fric_model))
    else
      n = int(friction_model_state_len_2d(fric_model))
    end if
  end function
end module

! Abaqus/Standard's FRIC argument list.
subroutine fric(lm, tau, ddtddg, ddtddp, dslip, sed, sfd, ddtddt, pnewdt, statev, dgam, taum, press, dpress, &
                ddpddh, slip, kstep, kinc, time, dtime, noel, ciname, slname, msname, npt, node, npatch, &
                coords, rcoord, drot, temp, predef, nfdir, mcrd, npred, nstatv, chrlng, props, nprops)
  use friction_c
  implicit none
  integer, intent(inout) :: lm
  integer, intent(in) :: kstep, kinc, noel, npt, node, npatch, nfdir, mcrd, npred, nstatv, nprops
  character(len=80), intent(in) :: ciname, slname, msname
  real(c_double), intent(out) :: tau(nfdir), ddtddg(nfdir, nfdir), ddtddp(nfdir), ddtddt(nfdir, 2)
  real(c_double), intent(inout) :: sed, sfd, pnewdt, statev(nstatv), dgam(nfdir)
  real(c_double), intent(in) :: dslip(nfdir), taum(nfdir), press, dpress, ddpddh, slip(nfdir), time(2), dtime
  real(c_double), intent(in) :: coords(mcrd), rcoord(mcrd), drot(2, 2), temp(2), predef(2, npred), chrlng
  real(c_double), intent(in) :: props(nprops)
  real(c_double) :: pn(1), k4(4), f2(2), n2(2), f1(1), k1(1), n1(1)
  call fric_setup()
  if (nstatv /= fric_state_len(nfdir)) then
    write(*, '(a, i0, a, i0)') 'fric: nstatv = ', nstatv, ', the model needs ', fric_state_len(nfdir)
    error stop 1
  end if
  ! the first increment starts from relaxed states at rest
  if (kstep == 1 .and. kinc == 1) then
    if (nfdir == 1) then
      call check(friction_model_init(fric_model, 1_c_size_t, statev), 'friction_model_init')
    else
      call check(friction_model_init_2d(fric_model, 1_c_size_t, statev), 'friction_model_init_2d')
    end if
  end if
  lm = 0
  pn(1) = press
  if (nfdir == 1) then
    call check(friction_model_update_tangent(fric_model, 1_c_size_t, dtime, dslip, pn, statev, f1, k1, n1), &
               'friction_model_update_tangent')
    tau(1) = f1(1)
    ddtddg(1, 1) = k1(1)
    ddtddp(1) = n1(1)
  else
    call check(friction_model_update_2d_tangent(fric_model, 1_c_size_t, dtime, dslip, pn, statev, f2, k4, n2), &
               'friction_model_update_2d_tangent')
    tau = f2
    ! row-major dF_i/ds_j into DDTDDG(i, j)
    ddtddg(1, 1) = k4(1)
    ddtddg(1, 2) = k4(2)
    ddtddg(2, 1) = k4(3)
    ddtddg(2, 2) = k4(4)
    ddtddp = n2
  end if
  ddtddt = 0
  ! the dissipated energy increment (trapezoidal), as FRIC may return it
  sfd = sum(0.5_c_double * (taum + tau) * dslip)
  dgam = dslip
  ! unused arguments of this model
  if (.false.) print *, sed, pnewdt, dpress, ddpddh, slip, time, noel, ciname, slname, msname, npt, node, &
                        npatch, coords, rcoord, drot, temp, predef, chrlng, props
end subroutine

! Driver: an implicit analysis of NP contact points, point i pressed with
! pressure p_i and tied by an elastic spring of stiffness K (per unit area)
! to a drive that moves 0 -> +D -> -D -> 0 in NINC increments. Each
! increment solves the equilibrium K (d - g) = TAU(g - g0) for the slip g
! by Newton's method, calling FRIC with the increment's starting STATEV in
! every iteration (as Abaqus does) and using DDTDDG in the Jacobian, until
! |residual| <= 1e-9 K D. Prints the final stress and slip of every point,
! the largest stress reached (the slip limit 0.3 p_i), and the largest
! number of Newton iterations in an increment, with the tangent and with a
! zero friction tangent (DDTDDG ignored, the spring alone in the Jacobian:
! a fixed-point iteration whose factor is the friction stiffness over K,
! which diverges where the contact is stiffer than its spring), and how many
! solves did not converge in 200 iterations without the tangent.
program fric_driver
  use friction_c
  implicit none
  integer, parameter :: np = 4, ninc = 120, nfdir = 1
  real(c_double), parameter :: k = 2e5_c_double, d = 4e-5_c_double, dt = 1e-2_c_double
  integer :: nstatv, i, inc, it, mode, most(2), lm, failed
  real(c_double), allocatable :: statev(:, :), trial(:)
  real(c_double) :: g(np), p(np), tau(1), ddtddg(1, 1), ddtddp(1), ddtddt(1, 2), dg(1), taum(np), dgam(1)
  real(c_double) :: sed, sfd, pnewdt, r, jac, drive, dgi, taumax(np), zeros(2), tm(1), sl(1)
  character(len=80) :: name

  nstatv = fric_state_len(nfdir)
  allocate(statev(nstatv, np), trial(nstatv))
  name = 'CONTACT'
  zeros = 0
  do i = 1, np
    p(i) = 1.0_c_double + 0.5_c_double * (i - 1)
  end do
  failed = 0
  do mode = 1, 2
    statev = 0
    g = 0
    taum = 0
    taumax = 0
    most(mode) = 0
    do inc = 1, ninc
      drive = d * drive_at(inc)
      do i = 1, np
        dgi = 0
        it = 0
        do
          it = it + 1
          if (it > 200) then
            if (mode == 1) then
              write(*, '(a, i0, a, i0)') 'no convergence: increment ', inc, ' point ', i
              error stop 1
            end if
            ! without the tangent: count the failure, go on from the last iterate
            failed = failed + 1
            exit
          end if
          trial = statev(:, i)
          dg(1) = dgi
          tm(1) = taum(i)
          sl(1) = g(i)
          call fric(lm, tau, ddtddg, ddtddp, dg, sed, sfd, ddtddt, pnewdt, trial, dgam, tm, p(i), 0.0_c_double, &
                    0.0_c_double, sl, 1, inc, zeros, dt, 1, name, name, name, 1, i, 1, zeros, zeros, &
                    reshape([1.0_c_double, 0.0_c_double, 0.0_c_double, 1.0_c_double], [2, 2]), zeros, &
                    reshape(zeros, [2, 1]), nfdir, 2, 1, nstatv, 1.0_c_double, zeros, 1)
          r = k * (drive - g(i) - dgi) - tau(1)
          if (abs(r) <= 1e-9_c_double * k * d) exit
          jac = k
          if (mode == 1) jac = jac + ddtddg(1, 1)
          dgi = dgi + r / jac
        end do
        if (it <= 200) most(mode) = max(most(mode), it - 1)
        statev(:, i) = trial
        g(i) = g(i) + dgi
        taum(i) = tau(1)
        taumax(i) = max(taumax(i), abs(tau(1)))
      end do
    end do
    if (mode == 1) then
      do i = 1, np
        write(*, '(a, i0, a, es25.17e3)') 'stress_', i, ' = ', taum(i)
        write(*, '(a, i0, a, es25.17e3)') 'slip_', i, ' = ', g(i)
        write(*, '(a, i0, a, es25.17e3)') 'max_stress_', i, ' = ', taumax(i)
      end do
    end if
  end do
  write(*, '(a, i0)') 'newton_iterations_with_tangent = ', most(1)
  write(*, '(a, i0)') 'newton_iterations_without_tangent = ', most(2)
  write(*, '(a, i0)') 'solves_not_converged_in_200_without_tangent = ', failed
  call friction_model_free(fric_model)

contains

  ! The drive in units of D: 0 -> 1 -> -1 -> 0, piecewise linear.
  function drive_at(inc) result(x)
    integer, intent(in) :: inc
    real(c_double) :: x, s
    s = real(inc, c_double) / ninc
    if (s <= 0.25_c_double) then
      x = 4 * s
    else if (s <= 0.75_c_double) then
      x = 1 - 4 * (s - 0.25_c_double)
    else
      x = -1 + 4 * (s - 0.75_c_double)
    end if
  end function
end program
