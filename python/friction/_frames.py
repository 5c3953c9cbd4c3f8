"""The one conversion of a result's columns to a pandas DataFrame (pandas is optional)."""

from typing import Any, Mapping, Optional


def to_frame(columns: Mapping[str, Any], what: Optional[str] = None) -> Any:
    """`columns` (name to 1-D array) as a pandas DataFrame, one column each.

    Without pandas: ImportError naming the call `what` that needs it and the
    dict to use instead, or, when `what` is None, the dict itself.
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        if what is None:
            return columns
        owner = what.split(".")[0]
        raise ImportError(
            f"{what}() needs pandas; install it with `pip install pandas` "
            f"(or use {owner}.columns, a dict of NumPy arrays)") from e
    return pd.DataFrame(columns)
