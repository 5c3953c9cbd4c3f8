//! The functions of FMI 3.0 this FMU does not support (event mode, clocks,
//! derivatives, variable types other than Float64): each returns
//! `fmi3Error` with a logged message naming the function and why.
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::c_int;

use crate::fmi2::slice;
use crate::instance::{FmiError, State};

use super::component::*;
use super::types::*;

/// Unsupported functions: `fmi3Error` with a message naming the function
/// and why. The parameters after `instance` are declared with their C
/// types (only the instance is read).
macro_rules! unsupported {
    ($($name:ident ( $($arg:ident : $ty:ty),* ) => $why:literal;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: not supported (", $why, "); returns `fmi3Error`.")]
        ///
        /// # Safety
        /// See the module doc.
        #[no_mangle]
        pub unsafe extern "C" fn $name(instance: fmi3Instance $(, $arg: $ty)*) -> fmi3Status {
            $(let _ = $arg;)*
            unsafe {
                call(instance, |_| {
                    Err(FmiError(format!("{} is not supported by this FMU ({})", stringify!($name), $why)))
                })
            }
        }
    )*};
}

/// Getters and setters of variable types this FMU does not have: only
/// `nValueReferences = 0` succeeds.
macro_rules! no_variables_of_type {
    ($($name:ident ( $($arg:ident : $ty:ty),* );)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: this FMU has only Float64 variables; only an empty call succeeds.")]
        ///
        /// # Safety
        /// See the module doc.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            instance: fmi3Instance,
            valueReferences: *const fmi3ValueReference,
            nValueReferences: usize
            $(, $arg: $ty)*
        ) -> fmi3Status {
            $(let _ = $arg;)*
            unsafe {
                call(instance, |comp| {
                    let vr = slice(valueReferences, nValueReferences, stringify!($name))?;
                    if comp.inst.state == State::Error {
                        return Err(FmiError(format!("{}: the instance is in the error state", stringify!($name))));
                    }
                    match vr.first() {
                        None => Ok(()),
                        Some(v) => Err(FmiError(format!(
                            "{}: unknown value reference {v}; this FMU has Float64 variables only",
                            stringify!($name)
                        ))),
                    }
                })
            }
        }
    )*};
}

no_variables_of_type! {
    fmi3GetFloat32(values: *mut f32, nValues: usize);
    fmi3GetInt8(values: *mut i8, nValues: usize);
    fmi3GetUInt8(values: *mut u8, nValues: usize);
    fmi3GetInt16(values: *mut i16, nValues: usize);
    fmi3GetUInt16(values: *mut u16, nValues: usize);
    fmi3GetInt32(values: *mut i32, nValues: usize);
    fmi3GetUInt32(values: *mut u32, nValues: usize);
    fmi3GetInt64(values: *mut i64, nValues: usize);
    fmi3GetUInt64(values: *mut u64, nValues: usize);
    fmi3GetBoolean(values: *mut fmi3Boolean, nValues: usize);
    fmi3GetString(values: *mut fmi3String, nValues: usize);
    fmi3GetBinary(valueSizes: *mut usize, values: *mut *const u8, nValues: usize);
    fmi3GetClock(values: *mut fmi3Boolean);
    fmi3SetFloat32(values: *const f32, nValues: usize);
    fmi3SetInt8(values: *const i8, nValues: usize);
    fmi3SetUInt8(values: *const u8, nValues: usize);
    fmi3SetInt16(values: *const i16, nValues: usize);
    fmi3SetUInt16(values: *const u16, nValues: usize);
    fmi3SetInt32(values: *const i32, nValues: usize);
    fmi3SetUInt32(values: *const u32, nValues: usize);
    fmi3SetInt64(values: *const i64, nValues: usize);
    fmi3SetUInt64(values: *const u64, nValues: usize);
    fmi3SetBoolean(values: *const fmi3Boolean, nValues: usize);
    fmi3SetString(values: *const fmi3String, nValues: usize);
    fmi3SetBinary(valueSizes: *const usize, values: *const *const u8, nValues: usize);
    fmi3SetClock(values: *const fmi3Boolean);
}

unsupported! {
    fmi3ActivateModelPartition(clockReference: fmi3ValueReference, activationTime: fmi3Float64)
        => "Co-Simulation only: no Scheduled Execution";
    fmi3EnterContinuousTimeMode() => "Co-Simulation only: no Model Exchange";
    fmi3CompletedIntegratorStep(
        noSetFMUStatePriorToCurrentPoint: fmi3Boolean,
        enterEventMode: *mut fmi3Boolean,
        terminateSimulation: *mut fmi3Boolean
    ) => "Co-Simulation only: no Model Exchange";
    fmi3SetTime(time: fmi3Float64) => "Co-Simulation only: no Model Exchange";
    fmi3SetContinuousStates(continuousStates: *const fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetContinuousStateDerivatives(derivatives: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetEventIndicators(eventIndicators: *mut fmi3Float64, nEventIndicators: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetContinuousStates(continuousStates: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetNominalsOfContinuousStates(nominals: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetNumberOfEventIndicators(nEventIndicators: *mut usize) => "Co-Simulation only: no Model Exchange";
    fmi3GetNumberOfContinuousStates(nContinuousStates: *mut usize) => "Co-Simulation only: no Model Exchange";
    fmi3EnterEventMode() => "hasEventMode = false";
    fmi3EnterStepMode() => "no event mode: the instance is in step mode after fmi3ExitInitializationMode";
    fmi3EnterConfigurationMode() => "no structural parameters";
    fmi3ExitConfigurationMode() => "no structural parameters";
    fmi3EvaluateDiscreteStates() => "providesEvaluateDiscreteStates = false";
    fmi3UpdateDiscreteStates(
        discreteStatesNeedUpdate: *mut fmi3Boolean,
        terminateSimulation: *mut fmi3Boolean,
        nominalsOfContinuousStatesChanged: *mut fmi3Boolean,
        valuesOfContinuousStatesChanged: *mut fmi3Boolean,
        nextEventTimeDefined: *mut fmi3Boolean,
        nextEventTime: *mut fmi3Float64
    ) => "hasEventMode = false";
    fmi3GetNumberOfVariableDependencies(valueReference: fmi3ValueReference, nDependencies: *mut usize)
        => "no dependency information";
    fmi3GetVariableDependencies(
        dependent: fmi3ValueReference,
        elementIndicesOfDependent: *mut usize,
        independents: *mut fmi3ValueReference,
        elementIndicesOfIndependents: *mut usize,
        dependencyKinds: *mut c_int,
        nDependencies: usize
    ) => "no dependency information";
    fmi3GetDirectionalDerivative(
        unknowns: *const fmi3ValueReference,
        nUnknowns: usize,
        knowns: *const fmi3ValueReference,
        nKnowns: usize,
        seed: *const fmi3Float64,
        nSeed: usize,
        sensitivity: *mut fmi3Float64,
        nSensitivity: usize
    ) => "providesDirectionalDerivatives = false";
    fmi3GetAdjointDerivative(
        unknowns: *const fmi3ValueReference,
        nUnknowns: usize,
        knowns: *const fmi3ValueReference,
        nKnowns: usize,
        seed: *const fmi3Float64,
        nSeed: usize,
        sensitivity: *mut fmi3Float64,
        nSensitivity: usize
    ) => "providesAdjointDerivatives = false";
    fmi3GetOutputDerivatives(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        orders: *const i32,
        values: *mut fmi3Float64,
        nValues: usize
    ) => "maxOutputDerivativeOrder = 0";
    fmi3GetIntervalDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        intervals: *mut fmi3Float64,
        qualifiers: *mut c_int
    ) => "no clocks";
    fmi3GetIntervalFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *mut u64,
        resolutions: *mut u64,
        qualifiers: *mut c_int
    ) => "no clocks";
    fmi3GetShiftDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        shifts: *mut fmi3Float64
    ) => "no clocks";
    fmi3GetShiftFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *mut u64,
        resolutions: *mut u64
    ) => "no clocks";
    fmi3SetIntervalDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        intervals: *const fmi3Float64
    ) => "no clocks";
    fmi3SetIntervalFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *const u64,
        resolutions: *const u64
    ) => "no clocks";
    fmi3SetShiftDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        shifts: *const fmi3Float64
    ) => "no clocks";
    fmi3SetShiftFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *const u64,
        resolutions: *const u64
    ) => "no clocks";
}
