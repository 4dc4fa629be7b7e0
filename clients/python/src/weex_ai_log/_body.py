"""The JSON a log is sent as: its order ID kept exact, its explanation fitted on request, its text encoded safely."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Sequence, Union

#: What WEEX allows in ``explanation``, counted as UTF-16 code units (Java's ``String.length()``), as the gateway does.
MAX_EXPLANATION_UNITS = 1000

#: An exchange order ID: an ``int`` or a string of decimal digits, 1 to 2**63-1 (the gateway checks the range).
OrderId = Union[int, str]


def utf16_units(text: str) -> int:
    """The length of ``text`` as WEEX and JavaScript count it: a character outside the BMP (an emoji) counts 2."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def fit_explanation(text: str, units: int = MAX_EXPLANATION_UNITS) -> str:
    """``text`` cut to at most ``units`` UTF-16 code units, never inside a character.

    An emoji at the boundary that does not fit whole is left out whole (999 letters and 😀 give the 999 letters).
    A string that already fits is returned as it is. Characters are code points: a sequence of several (a flag, a
    family emoji joined with U+200D) may lose its tail, as no code point is ever split.
    """
    if units < 0:
        raise ValueError("units must be >= 0")
    if len(text) * 2 <= units:
        return text  # fits even if every character were an emoji
    used = 0
    for index, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > units:
            # A surrogate pair held as two code points (a str built with "surrogatepass") is not split either.
            if index > 0 and 0xD800 <= ord(text[index - 1]) <= 0xDBFF and 0xDC00 <= ord(ch) <= 0xDFFF:
                index -= 1
            return text[:index]
    return text


def order_id_value(order_id: Optional[OrderId]) -> Optional[OrderId]:
    """The order ID as it goes into the JSON: an ``int`` as a JSON integer (exact at any size), a ``str`` as sent.

    Refuses what would lose digits or mean something else: a float (2**53 + 1 as a float is 2**53), a bool, a Decimal.
    The gateway checks the rest (digits only, 1 to 2**63-1) and answers 400 naming ``orderId``.
    """
    if order_id is None:
        return None
    if isinstance(order_id, bool) or not isinstance(order_id, (int, str)):
        raise TypeError(
            f"order_id must be an int or a str of decimal digits, not {type(order_id).__name__} (a float loses digits above 2**53)"
        )
    return int(order_id) if isinstance(order_id, int) else str(order_id)


def log_fields(
    *,
    stage: str,
    model: Optional[str] = None,
    input: Optional[Mapping[str, Any]] = None,
    output: Optional[Mapping[str, Any]] = None,
    explanation: Optional[str] = None,
    order_id: Optional[OrderId] = None,
    model_call_ids: Optional[Sequence[str]] = None,
    fit: bool = False,
) -> Dict[str, Any]:
    """A log's body, in the gateway's field names. ``fit`` cuts ``explanation`` to what WEEX takes.

    With ``model_call_ids`` (the calls the gateway recorded), ``model``, ``input``, ``output`` and ``explanation`` left
    out are filled by the gateway from the calls; without, all four are required.
    """
    given = {"model": model, "input": input, "output": output, "explanation": explanation}
    missing = [name for name, value in given.items() if value is None]
    if model_call_ids is None and missing:
        raise TypeError(f"log needs {', '.join(missing)} (or model_call_ids, for the gateway to fill them from the calls)")
    if isinstance(model_call_ids, str):
        raise TypeError("model_call_ids must be a list of call ids, not one str")
    body: Dict[str, Any] = {}
    value = order_id_value(order_id)
    if value is not None:
        body["orderId"] = value
    body["stage"] = stage
    if model_call_ids is not None:
        body["modelCallIds"] = list(model_call_ids)
    if fit and isinstance(explanation, str):
        given["explanation"] = fit_explanation(explanation)
    body.update({name: value for name, value in given.items() if value is not None})
    return body


def encode(body: Any) -> bytes:
    """Compact UTF-8 JSON. Refuses NaN and infinities (not JSON) and what json cannot encode, with TypeError/ValueError.

    Text that is not Unicode (a lone surrogate, which UTF-8 cannot carry) is sent escaped (``\\ud800``), so that the
    gateway's 400 names the place that holds it instead of refusing the whole body as malformed.
    """
    try:
        return json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")
