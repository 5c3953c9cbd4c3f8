//! Python values to TOML values (scenario dicts, model parameters).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Convert a Python value (dict, list/tuple, bool, int, float, str, or a
/// NumPy scalar/array through `tolist()`) to TOML; `path` names it in errors.
pub fn to_value(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<toml::Value> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(obj.extract()?));
    }
    if obj.is_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(i) => Ok(toml::Value::Integer(i)),
            Err(_) => Ok(toml::Value::Float(obj.extract::<f64>()?)),
        };
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(obj.extract()?));
    }
    if obj.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(obj.extract()?));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return Ok(toml::Value::Table(to_table(d, path)?));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut a = Vec::new();
        for (i, item) in obj.try_iter()?.enumerate() {
            a.push(to_value(&item?, &format!("{path}[{i}]"))?);
        }
        return Ok(toml::Value::Array(a));
    }
    // NumPy scalars and arrays
    if obj.hasattr("tolist")? && obj.hasattr("dtype")? {
        let plain = obj.call_method0("tolist")?;
        if !plain.hasattr("dtype")? {
            return to_value(&plain, path);
        }
    }
    Err(PyTypeError::new_err(format!(
        "`{path}`: cannot use a value of type {} (expected a dict, list, bool, int, float or str)",
        obj.get_type().name()?
    )))
}

/// Convert a Python dict with string keys to a TOML table.
pub fn to_table(d: &Bound<'_, PyDict>, path: &str) -> PyResult<toml::Table> {
    let mut t = toml::Table::new();
    for (k, v) in d.iter() {
        let key: String = k.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "`{path}`: keys must be strings, found {}",
                k.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        if v.is_none() {
            continue;
        }
        let p = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        t.insert(key, to_value(&v, &p)?);
    }
    Ok(t)
}
