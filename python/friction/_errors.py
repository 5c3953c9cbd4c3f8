"""The exceptions of the package (defined in the compiled module)."""

from ._friction import ScenarioError, SimulationError

__all__ = ["ScenarioError", "SimulationError"]
