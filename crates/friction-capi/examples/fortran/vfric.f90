! vfric.f90: a VFRIC-shaped friction user subroutine calling the friction
! library through iso_c_binding, and a small driver program.
!
! Abaqus/Explicit calls VFRIC for a block of contact nodes with, among much
! else, the incremental slip, the normal force and a per-node state array
! that persists between increments (like STATEV), and expects the
! tangential force back. This example keeps that shape, simplified to one
! slip direction and the arguments the library needs:
!
!   vfric(fTangential, state, nBlock, nStates, kInc, dt, dSlipFric, fNormal)
!
! The model is created once, on the first call, and kept in the module (a
! real subroutine would read the model id and parameters from its props).
! On the first increment the states are initialised (relaxed, at rest).
! The force follows the library's convention: positive opposes positive slip.
!
! Build (from crates/friction-capi, after `cargo build -p friction-capi`):
!   gfortran -O2 examples/fortran/vfric.f90 ../../target/debug/libfriction_capi.a \
!            -lpthread -ldl -lm -o vfric
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
    function friction_model_init(m, n, state) bind(c, name="friction_model_init")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), dimension(*) :: state
      integer(c_int) :: friction_model_init
    end function
    function friction_model_update(m, n, dt, slip, normal, state, force) bind(c, name="friction_model_update")
      import :: c_ptr, c_size_t, c_double, c_int
      type(c_ptr), value :: m
      integer(c_size_t), value :: n
      real(c_double), value :: dt
      real(c_double), dimension(*), intent(in) :: slip, normal
      real(c_double), dimension(*) :: state, force
      integer(c_int) :: friction_model_update
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

  ! the model shared by every call of vfric (created on the first one)
  type(c_ptr), save :: vfric_model = c_null_ptr
  character(len=*), parameter :: vfric_model_id = "iwan4"
  character(len=*), parameter :: vfric_params = &
    "fs = 1.0" // c_new_line // "kt = 1e5" // c_new_line // "chi = -0.5" // c_new_line // &
    "beta = 0.1" // c_new_line // "n = 50"

contains

  ! The library's last error message as a Fortran string.
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

  ! Number of state values per node the model needs.
  function vfric_state_len() result(n)
    integer :: n
    call vfric_setup()
    n = int(friction_model_state_len(vfric_model))
  end function

  subroutine vfric_setup()
    if (.not. c_associated(vfric_model)) then
      vfric_model = friction_model_new(vfric_model_id // c_null_char, vfric_params // c_null_char)
      if (.not. c_associated(vfric_model)) then
        write(*, '(a, a)') 'friction_model_new failed: ', last_error()
        error stop 1
      end if
    end if
  end subroutine

  ! VFRIC-shaped user subroutine: friction forces for a block of nodes.
  subroutine vfric(fTangential, state, nBlock, nStates, kInc, dt, dSlipFric, fNormal)
    integer, intent(in) :: nBlock, nStates, kInc
    real(c_double), intent(in) :: dt, dSlipFric(nBlock), fNormal(nBlock)
    real(c_double), intent(inout) :: state(nStates, nBlock)
    real(c_double), intent(out) :: fTangential(nBlock)
    call vfric_setup()
    if (nStates /= vfric_state_len()) then
      write(*, '(a, i0, a, i0)') 'vfric: nStates = ', nStates, ', the model needs ', vfric_state_len()
      error stop 1
    end if
    if (kInc == 1) call check(friction_model_init(vfric_model, int(nBlock, c_size_t), state), 'friction_model_init')
    call check(friction_model_update(vfric_model, int(nBlock, c_size_t), dt, dSlipFric, fNormal, state, fTangential), &
               'friction_model_update')
  end subroutine
end module

! Driver: 8 nodes under sine slips of growing amplitude (micro-slip, all
! below the Iwan joint's full-slip displacement phi_max = 25.4 um), two
! periods in 2000 increments; prints the final forces, the dissipated energy
! (sum of F dSlip, trapezoidal) and, per node, the energy dissipated over
! the second period per unit normal load: one closed hysteresis loop, which
! Segalman's closed form gives (D(A) = 4 R A^(chi+3) / ((chi+2)(chi+3))).
program vfric_driver
  use friction_c
  implicit none
  integer, parameter :: nBlock = 8, nInc = 2000
  real(c_double), parameter :: dt = 1e-4_c_double, pi = 3.14159265358979323846_c_double
  real(c_double) :: fTangential(nBlock), fOld(nBlock), dSlip(nBlock), fNormal(nBlock), amp(nBlock)
  real(c_double), allocatable :: state(:, :)
  real(c_double) :: energy, w, t0, t1, loop(nBlock)
  integer :: i, k, nStates

  nStates = vfric_state_len()
  allocate(state(nStates, nBlock))
  state = 0
  do i = 1, nBlock
    amp(i) = 2.5e-6_c_double * i
    fNormal(i) = 1.0_c_double + 0.1_c_double * i
  end do
  w = 2 * pi * 10.0_c_double
  fOld = 0
  energy = 0
  loop = 0
  do k = 1, nInc
    t0 = (k - 1) * dt
    t1 = k * dt
    do i = 1, nBlock
      dSlip(i) = amp(i) * (sin(w * t1) - sin(w * t0))
    end do
    call vfric(fTangential, state, nBlock, nStates, k, dt, dSlip, fNormal)
    do i = 1, nBlock
      energy = energy + 0.5_c_double * (fOld(i) + fTangential(i)) * dSlip(i)
      if (k > nInc / 2) loop(i) = loop(i) + 0.5_c_double * (fOld(i) + fTangential(i)) * dSlip(i) / fNormal(i)
    end do
    fOld = fTangential
  end do
  do i = 1, nBlock
    write(*, '(a, i0, a, es25.17e3)') 'force_', i, ' = ', fTangential(i)
  end do
  write(*, '(a, es25.17e3)') 'dissipated_energy = ', energy
  do i = 1, nBlock
    write(*, '(a, i0, a, es25.17e3)') 'loop_dissipation_', i, ' = ', loop(i)
  end do
  call friction_model_free(vfric_model)
end program
