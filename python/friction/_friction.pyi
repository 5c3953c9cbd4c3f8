"""Type stubs of the compiled module friction._friction (python/src/)."""

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

class ScenarioError(ValueError): ...

class SimulationError(RuntimeError):
    result: Any

def models() -> List[str]: ...
def describe_json(id: str) -> str: ...
def to_toml(obj: Dict[str, Any]) -> str: ...
def simulate_text(
    text: str, file: str, dir: str
) -> Tuple[List[str], npt.NDArray[np.float64], str, List[Tuple[float, str, str, str]], Optional[str]]: ...
def sweep_check(
    text: str, file: str, dir: str, paths: List[str], values: npt.NDArray[np.float64], metrics: List[str]
) -> None: ...
def grid_rows(paths: List[str], columns: List[List[float]], zip: bool) -> npt.NDArray[np.float64]: ...
def sweep_chunk(
    text: str, file: str, dir: str, paths: List[str], values: npt.NDArray[np.float64], metrics: List[str]
) -> Tuple[npt.NDArray[np.float64], List[str]]: ...
def fit_json(
    model: str,
    t: npt.NDArray[np.float64],
    x: Optional[npt.NDArray[np.float64]],
    v: Optional[npt.NDArray[np.float64]],
    f: npt.NDArray[np.float64],
    normal: Optional[npt.NDArray[np.float64]],
    fix: List[str],
    free: Optional[List[str]],
    params_init: Optional[Dict[str, Any]],
    validate_from: Optional[float],
    starts: int,
    seed: int,
) -> Tuple[str, List[float]]: ...
def analyze_json(
    kind: str,
    t: npt.NDArray[np.float64],
    x: Optional[npt.NDArray[np.float64]],
    v: Optional[npt.NDArray[np.float64]],
    f: Optional[npt.NDArray[np.float64]],
    **options: Any,
) -> str: ...

def frf_table(
    text: str, file: str, dir: str, force: str, f_min: float, f_max: float,
    harmonics: Optional[int] = None, samples: Optional[int] = None,
) -> Tuple[List[str], List[List[float]], str]: ...
def nnm_table(
    text: str, file: str, dir: str, amplitudes: List[float], body: Optional[str] = None, mode: int = 1,
    harmonics: int = 5, samples: Optional[int] = None,
) -> Tuple[List[str], List[List[float]], str]: ...
class Model:
    id: str
    state_len: int
    state_len_2d: int
    method: str
    def __init__(self, id: str, params: Optional[Dict[str, Any]] = None) -> None: ...
    def init(self, n: int) -> npt.NDArray[np.float64]: ...
    def init_2d(self, n: int) -> npt.NDArray[np.float64]: ...
    def update(
        self,
        dt: float,
        slip_increment: npt.NDArray[np.float64],
        normal: npt.NDArray[np.float64],
        state: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float64]: ...
    def update_2d(
        self,
        dt: float,
        slip_increment: npt.NDArray[np.float64],
        normal: npt.NDArray[np.float64],
        state: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float64]: ...
    def update_tangent(
        self,
        dt: float,
        slip_increment: npt.NDArray[np.float64],
        normal: npt.NDArray[np.float64],
        state: npt.NDArray[np.float64],
    ) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def update_2d_tangent(
        self,
        dt: float,
        slip_increment: npt.NDArray[np.float64],
        normal: npt.NDArray[np.float64],
        state: npt.NDArray[np.float64],
    ) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
