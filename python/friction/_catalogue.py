"""The model catalogue: ids and descriptions."""

import json
from typing import Any, Dict, List

from . import _friction


def models() -> List[str]:
    """Every model id, for example ``"coulomb"``, ``"lugre"``, ``"maxwell_slip"``.

    >>> "lugre" in models()
    True
    """
    return list(_friction.models())


def describe(id: str) -> Dict[str, Any]:
    """The description of model ``id``.

    Returns a dict with ``id``, ``family`` (static map, set-valued stick,
    continuous state, hysteresis operator, wrapper), ``summary``,
    ``equations`` (plain text), ``parameters`` (a list of dicts with
    ``name``, ``symbol``, ``unit``, ``kind``, ``required``, ``range`` (text
    such as ``"(0, inf)"``), ``min`` and ``max`` (None when unbounded),
    ``min_inclusive``, ``max_inclusive``, ``default`` (None when required or
    absent), ``default_text``, ``description``, and ``options`` for choices or
    ``columns`` for element rows), ``states``, ``n_states``, ``n_memory``,
    ``state_layout``, ``update`` and ``update_method`` (how ``Model.update``
    advances it), ``sources``, ``references`` (``key``, ``cite``, ``full``)
    and ``load_parameter``: the catalogue the C library and
    ``friction models ID --json`` print too (JSON Schema:
    ``docs/model.schema.json`` in the repository).

    Raises ``ValueError`` for an unknown id, listing the known ones.

    >>> describe("coulomb")["parameters"][0]["name"]
    'fc'
    """
    if not isinstance(id, str):
        raise TypeError(f"model id must be a str, found {type(id).__name__}")
    return json.loads(_friction.describe_json(id))
