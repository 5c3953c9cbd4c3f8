"""Type stubs of the public API of friction (the implementation modules are typed inline)."""

from ._analysis import analyze as analyze, fit as fit
from ._catalogue import describe as describe, models as models
from ._errors import ScenarioError as ScenarioError, SimulationError as SimulationError
from ._hb import HbResult as HbResult, frf as frf, nnm as nnm
from ._model import Model as Model
from ._simulate import Result as Result, simulate as simulate
from ._sweep import sweep as sweep

__all__: list
__version__: str
