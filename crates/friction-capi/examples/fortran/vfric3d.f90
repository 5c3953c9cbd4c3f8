! vfric3d.f90: a user friction subroutine with the argument list of Abaqus/
! Explicit's VFRIC for 3-D contact (two tangential directions), calling the
! friction library's 2-D update through iso_c_binding, and a driver program.
!
! VFRIC hands over, per contact point k of a block of nContact points, the
! incremental slip dSlipFric(:, k) in the local frame (t1, t2, n): t1 is
! the direction of the slip increment (direction cosines dircosSl(:, k)),
! n the master surface normal (dircosN(:, k)) and t2 = n x t1; it expects
! fTangential(:, k) in the same frame, opposing the slip (its first
! component between 0 and -fStickForce(k)). Because t1 turns with the slip,
! history cannot be kept in that frame: the subroutine maps the slip to a
! fixed tangent basis (e1, e2) of the master surface (e1 the global x axis
! projected on the tangent plane, e2 = n x e1), calls
! friction_model_update_2d there, and maps the force back. The library's
! state for each slave node lives in statev(:, node) (nStateVar =
! friction_model_state_len_2d doubles), gathered for the nodes in contact
! (jConSlvid) and scattered back. It is initialised on the first increment.
!
! The model is created once and kept in the module (a real subroutine
! would read its id and parameters from props).
!
! Build (from crates/friction-capi, after `cargo build -p friction-capi`):
!   gfortran -O2 examples/fortran/vfric3d.f90 ../../target/debug/libfriction_capi.a \
!            -lpthread -ldl -lm -o vfric3d
module friction_c2d
  use iso_c_binding
  implicit none
  interface
    function friction_model_new(model_id, params_toml) bind(c, name="friction_model_new")
      import :: c_ptr, c_char
      character(kind=c_char), dimension(*), intent(in) :: model_id, params_toml
      type(c_ptr) :: friction_model_new
    end function
    function friction_model_state_len_2d(m) bind(c, name="friction_model_state_len_2d")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: m
      integer(c_size_t) :: friction_model_state_len_2d
    end function
    function friction_model_init_2d(m, n, state) bind(c, name="friction_model_init_2d")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), dimension(*) :: state
      integer(c_int) :: friction_model_init_2d
    end function
    function friction_model_update_2d(m, n, dt, slip, normal, state, force) bind(c, name="friction_model_update_2d")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), value :: dt
      real(c_double), dimension(*), intent(in) :: slip, normal
      real(c_double), dimension(*) :: state, force
      integer(c_int) :: friction_model_update_2d
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

  type(c_ptr), save :: fric_model = c_null_ptr
  character(len=*), parameter :: fric_model_id = "lugre"
  character(len=*), parameter :: fric_params = &
    "sigma0 = 1e5" // c_new_line // "sigma1 = 316.0" // c_new_line // "sigma2 = 0.4" // c_new_line // &
    "fc = 0.3" // c_new_line // "fs = 0.4" // c_new_line // "vs = 1e-3"

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

  ! Doubles of library state per slave node (nStateVar).
  function fric_state_len() result(n)
    integer :: n
    if (.not. c_associated(fric_model)) then
      fric_model = friction_model_new(fric_model_id // c_null_char, fric_params // c_null_char)
      if (.not. c_associated(fric_model)) then
        write(*, '(a, a)') 'friction_model_new failed: ', last_error()
        error stop 1
      end if
    end if
    n = int(friction_model_state_len_2d(fric_model))
    if (n == 0) then
      write(*, '(a, a)') 'friction_model_state_len_2d: ', last_error()
      error stop 1
    end if
  end function

  ! The user subroutine, with VFRIC's argument list (3-D contact pair).
  subroutine vfric(fTangential, statev, kStep, kInc, nContact, nFacNod, nSlvNod, nMstNod, &
                   nFricDir, nDir, nStateVar, nProps, nTemp, nPred, numDefTfv, &
                   jSlvUid, jMstUid, jConSlvid, jConMstid, timStep, timGlb, &
                   dTimCur, surfInt, surfSlv, surfMst, lContType, &
                   dSlipFric, fStickForce, fTangPrev, fNormal, frictionWork, &
                   shape, coordSlv, coordMst, dircosSl, dircosN, props, &
                   areaSlv, tempSlv, preDefSlv, tempMst, preDefMst)
    integer, intent(in) :: kStep, kInc, nContact, nFacNod, nSlvNod, nMstNod, nFricDir, nDir, &
                           nStateVar, nProps, nTemp, nPred, numDefTfv, lContType
    integer, intent(in) :: jSlvUid(nSlvNod), jMstUid(nMstNod), jConSlvid(nContact), jConMstid(nFacNod, nContact)
    real(c_double), intent(in) :: timStep, timGlb, dTimCur, frictionWork
    character(len=*), intent(in) :: surfInt, surfSlv, surfMst
    real(c_double), intent(out) :: fTangential(nFricDir, nContact)
    real(c_double), intent(inout) :: statev(nStateVar, nSlvNod)
    real(c_double), intent(in) :: dSlipFric(nDir, nContact), fStickForce(nContact), fTangPrev(nDir, nContact), &
      fNormal(nContact), shape(nFacNod, nContact), coordSlv(nDir, nSlvNod), coordMst(nDir, nMstNod), &
      dircosSl(nDir, nContact), dircosN(nDir, nContact), props(nProps), areaSlv(nSlvNod), &
      tempSlv(nContact), preDefSlv(nContact, nPred), tempMst(numDefTfv), preDefMst(numDefTfv, nPred)
    real(c_double) :: state(nStateVar, nContact), slip(2, nContact), force(2, nContact)
    real(c_double) :: t1(3), t2(3), n(3), e1(3), e2(3), ds(3), f(3)
    integer :: k

    if (nDir /= 3 .or. nFricDir /= 2) then
      write(*, '(a)') 'vfric: this subroutine is for 3-D contact (nDir = 3, nFricDir = 2)'
      error stop 1
    end if
    if (nStateVar /= fric_state_len()) then
      write(*, '(a, i0, a, i0)') 'vfric: nStateVar = ', nStateVar, ', the model needs ', fric_state_len()
      error stop 1
    end if
    if (kInc == 1) call check(friction_model_init_2d(fric_model, int(nSlvNod, c_size_t), statev), &
                              'friction_model_init_2d')
    do k = 1, nContact
      call frame(dircosSl(:, k), dircosN(:, k), t1, t2, n, e1, e2)
      ! the slip increment in global coordinates, then in the fixed basis
      ds = dSlipFric(1, k) * t1 + dSlipFric(2, k) * t2
      slip(1, k) = dot(ds, e1)
      slip(2, k) = dot(ds, e2)
      state(:, k) = statev(:, jConSlvid(k))
    end do
    call check(friction_model_update_2d(fric_model, int(nContact, c_size_t), dTimCur, slip, fNormal, state, force), &
               'friction_model_update_2d')
    do k = 1, nContact
      statev(:, jConSlvid(k)) = state(:, k)
      call frame(dircosSl(:, k), dircosN(:, k), t1, t2, n, e1, e2)
      ! the library's force opposes the slip with a positive sign; VFRIC's opposes it with a negative one
      f = force(1, k) * e1 + force(2, k) * e2
      fTangential(1, k) = -max(min(dot(f, t1), fStickForce(k)), -fStickForce(k))
      fTangential(2, k) = -dot(f, t2)
    end do
  end subroutine

  pure function dot(a, b) result(s)
    real(c_double), intent(in) :: a(3), b(3)
    real(c_double) :: s
    s = a(1) * b(1) + a(2) * b(2) + a(3) * b(3)
  end function

  pure function cross(a, b) result(c)
    real(c_double), intent(in) :: a(3), b(3)
    real(c_double) :: c(3)
    c = [a(2) * b(3) - a(3) * b(2), a(3) * b(1) - a(1) * b(3), a(1) * b(2) - a(2) * b(1)]
  end function

  ! VFRIC's local frame (t1, t2 = n x t1, n) and the fixed tangent basis
  ! (e1 = global x projected on the tangent plane, e2 = n x e1).
  pure subroutine frame(dirT1, dirN, t1, t2, n, e1, e2)
    real(c_double), intent(in) :: dirT1(3), dirN(3)
    real(c_double), intent(out) :: t1(3), t2(3), n(3), e1(3), e2(3)
    real(c_double), parameter :: x(3) = [1.0_c_double, 0.0_c_double, 0.0_c_double]
    t1 = dirT1
    n = dirN
    t2 = cross(n, t1)
    e1 = x - dot(x, n) * n
    e1 = e1 / sqrt(dot(e1, e1))
    e2 = cross(n, e1)
  end subroutine
end module

! Driver: 8 slave nodes on a flat base (normal +z), each moved around an
! ellipse of its own size at 5 cycles per second for 2,000 increments, the
! contact points listed in reverse node order (jConSlvid). Abaqus' local
! frame is rebuilt every increment as VFRIC receives it: t1 along the slip
! increment, dSlipFric = (|ds|, 0, 0). Prints the final global friction
! forces and the dissipated energy (sum of F . ds, trapezoidal).
program vfric3d_driver
  use friction_c2d
  implicit none
  integer, parameter :: nContact = 8, nSlvNod = 8, nDir = 3, nFricDir = 2, nInc = 2000
  real(c_double), parameter :: dt = 1e-4_c_double, pi = 3.14159265358979323846_c_double
  real(c_double) :: fTangential(nFricDir, nContact), dSlipFric(nDir, nContact), dircosSl(nDir, nContact), &
    dircosN(nDir, nContact), fStickForce(nContact), fNormal(nContact), fGlobal(3, nContact), fOld(3, nContact), &
    gSlip(3, nContact), ax(nContact), ay(nContact)
  real(c_double), allocatable :: statev(:, :)
  real(c_double) :: energy, w, t0, t1, s, t2v(3), worst
  integer :: jConSlvid(nContact), jSlvUid(nSlvNod), jMstUid(1), jConMstid(1, nContact)
  ! arguments this subroutine does not read, sized as VFRIC declares them
  real(c_double) :: shapeArr(1, nContact), coordSlv(nDir, nSlvNod), coordMst(nDir, 1), props(1), &
    areaSlv(nSlvNod), tempSlv(nContact), preDefSlv(nContact, 1), tempMst(1), preDefMst(1, 1)
  integer :: i, k, nStateVar

  nStateVar = fric_state_len()
  allocate(statev(nStateVar, nSlvNod))
  statev = 0
  do i = 1, nContact
    jConSlvid(i) = nContact + 1 - i
    jSlvUid(i) = 100 + i
    ax(i) = 2.0e-4_c_double * i
    ay(i) = 1.0e-4_c_double * (9 - i)
    fNormal(i) = 1.0_c_double + 0.1_c_double * jConSlvid(i)  ! contact i is node jConSlvid(i)
    fStickForce(i) = huge(1.0_c_double)
    dircosN(:, i) = [0.0_c_double, 0.0_c_double, 1.0_c_double]
  end do
  jMstUid = 1
  jConMstid = 1
  shapeArr = 1
  coordSlv = 0
  coordMst = 0
  props = 0
  areaSlv = 1
  tempSlv = 0
  preDefSlv = 0
  tempMst = 0
  preDefMst = 0
  w = 2 * pi * 5.0_c_double
  fOld = 0
  energy = 0
  worst = 0
  do k = 1, nInc
    t0 = (k - 1) * dt
    t1 = k * dt
    do i = 1, nContact
      ! the node jConSlvid(i) moves around its ellipse
      gSlip(:, i) = [ax(jConSlvid(i)) * (cos(w * t1) - cos(w * t0)), ay(jConSlvid(i)) * (sin(w * t1) - sin(w * t0)), &
                     0.0_c_double]
      s = sqrt(gSlip(1, i) * gSlip(1, i) + gSlip(2, i) * gSlip(2, i) + gSlip(3, i) * gSlip(3, i))
      dSlipFric(:, i) = [s, 0.0_c_double, 0.0_c_double]
      dircosSl(:, i) = gSlip(:, i) / s
    end do
    call vfric(fTangential, statev, 1, k, nContact, 1, nSlvNod, 1, nFricDir, nDir, nStateVar, 1, 1, 1, 1, &
               jSlvUid, jMstUid, jConSlvid, jConMstid, t1, t1, dt, 'INT', 'SLAVE', 'MASTER', 0, &
               dSlipFric, fStickForce, dSlipFric, fNormal, 0.0_c_double, &
               shapeArr, coordSlv, coordMst, dircosSl, dircosN, props, &
               areaSlv, tempSlv, preDefSlv, tempMst, preDefMst)
    do i = 1, nContact
      ! the friction force on the slave node in global coordinates (opposing the slip)
      t2v = cross(dircosN(:, i), dircosSl(:, i))
      fGlobal(:, i) = fTangential(1, i) * dircosSl(:, i) + fTangential(2, i) * t2v
      worst = max(worst, fTangential(1, i))
      energy = energy - 0.5_c_double * dot(fOld(:, i) + fGlobal(:, i), gSlip(:, i))
    end do
    fOld = fGlobal
  end do
  do i = 1, nContact
    write(*, '(a, i0, a, es25.17e3)') 'force_x_', jConSlvid(i), ' = ', fGlobal(1, i)
    write(*, '(a, i0, a, es25.17e3)') 'force_y_', jConSlvid(i), ' = ', fGlobal(2, i)
  end do
  write(*, '(a, es25.17e3)') 'dissipated_energy = ', energy
  write(*, '(a, es25.17e3)') 'max_first_component = ', worst
  call friction_model_free(fric_model)
end program
