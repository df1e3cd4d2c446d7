"""The agent's calculator: exact arithmetic by walking the syntax tree, and why the articles' filtered ``eval`` is unsafe.

Models get arithmetic wrong, so the agent calls a tool for every subtraction and ratio. The
articles' version filters the expression down to digits and operators and then calls ``eval``;
:func:`filtered_eval_flaw` shows what that filter still lets through. :func:`evaluate` never
calls ``eval``: it walks the expression's syntax tree and refuses huge powers before computing them.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import CourseError

#: Limits that keep every calculation instant: inputs this long, exponents this large or results
#: with this many digits are refused before any work is done.
MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 1000
MAX_RESULT_DIGITS = 100
MAX_RESULT = 10.0**MAX_RESULT_DIGITS

_SYMBOLS = {"×": "*", "÷": "/", "−": "-", "–": "-", "^": "**"}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
_PERCENT_OF = re.compile(_NUMBER + r"\s*%\s*of\b", re.I)
# A "%" is a percent sign only when no operand follows it ("12%", "12% + 3"); "7 % 2" stays a (refused) modulo.
_PERCENT = re.compile(_NUMBER + r"\s*%(?!\s*[\d.(])")
_OPERATORS: dict[type[ast.AST], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_REFUSED_NODES = {
    ast.Name: "names such as {name!r} are not allowed: write the numbers themselves",
    ast.Attribute: "attribute access is not allowed",
    ast.Call: "function calls are not allowed",
    ast.Subscript: "indexing is not allowed",
    ast.Tuple: "a comma separates two values: write one expression (thousands separators need groups of 3 digits)",
}


class CalculationError(ValueError):
    """An expression the calculator refuses; the message says why in one line."""


def _normalise(expression: str) -> str:
    """Turn the ways people (and models) write arithmetic into Python syntax: ×, ÷, −, ^, 1,234, 12%, 12% of 50."""
    text = expression.strip()
    for symbol, python in _SYMBOLS.items():
        text = text.replace(symbol, python)
    text = _THOUSANDS.sub("", text)
    text = _PERCENT_OF.sub(r"(\1/100)*", text)
    return _PERCENT.sub(r"(\1/100)", text)


def _digits(value: float) -> float:
    """How many decimal digits ``abs(value)`` has before the point (log10), without computing it."""
    return math.log10(abs(value)) if value else 0.0


def _power(base: float, exponent: float) -> float:
    """``base ** exponent``, refused *before* computing when the exponent or the result would be too large."""
    if abs(exponent) > MAX_EXPONENT:
        raise CalculationError(f"the exponent {exponent:g} is too large (the limit is {MAX_EXPONENT})")
    if base and exponent > 0 and exponent * _digits(base) > MAX_RESULT_DIGITS:
        raise CalculationError(f"the result would have about {exponent * _digits(base):,.0f} digits "
                               f"(the limit is {MAX_RESULT_DIGITS})")
    if base < 0 and not float(exponent).is_integer():
        raise CalculationError("a negative number to a fractional power is not a real number")
    if base == 0 and exponent < 0:
        raise CalculationError("zero to a negative power is a division by zero")
    return base**exponent


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise CalculationError(f"only numbers are allowed, not {type(node.value).__name__} {node.value!r}")
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            result = _power(left, right)
        elif isinstance(node.op, ast.Div) and right == 0:
            raise CalculationError("division by zero")
        else:
            result = _OPERATORS[type(node.op)](left, right)
        if abs(result) > MAX_RESULT or (isinstance(result, float) and not math.isfinite(result)):
            raise CalculationError(f"the result is larger than 1e{MAX_RESULT_DIGITS}")
        return result
    if isinstance(node, ast.BinOp):
        raise CalculationError(f"the operator {type(node.op).__name__} is not supported: use + - * / ** and %")
    for kind, message in _REFUSED_NODES.items():
        if isinstance(node, kind):
            raise CalculationError(message.format(name=getattr(node, "id", "")))
    raise CalculationError(f"{type(node).__name__} is not allowed in a calculation")


def evaluate(expression: str) -> float:
    """The value of an arithmetic expression, computed by walking its syntax tree (never ``eval``).

    Numbers, + − × ÷, parentheses, unary minus, ``**`` (or ``^``) within limits, ``12%`` (0.12) and
    ``12% of 50``. Everything else — names, attributes, calls, strings — is refused with a
    :class:`CalculationError`, and so is any power whose result would be huge, *before* it is computed.
    """
    if not expression.strip():
        raise CalculationError("the expression is empty")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculationError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(_normalise(expression), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise CalculationError(f"it is not a valid arithmetic expression ({getattr(exc, 'msg', exc)})") from None
    return _evaluate(tree)


def format_number(value: float) -> str:
    """A result as people write it: at most 10 significant digits, no trailing zeros (3.1, not 3.1000000000000014)."""
    if isinstance(value, int):
        return str(value)
    rounded = float(f"{value:.10g}")
    if rounded == 0:
        return "0"
    if 1e-6 <= abs(rounded) < 1e15:
        decimals = max(0, 9 - math.floor(math.log10(abs(rounded))))
        return f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{rounded:.10g}"


def calculate(expression: str) -> str:
    """The calculator tool: ``"45.2 - 42.1 = 3.1"``, or a one-line refusal the model can act on."""
    try:
        return f"{expression.strip()} = {format_number(evaluate(expression))}"
    except CalculationError as exc:
        return f"Cannot calculate {expression.strip()[:80]!r}: {exc}."


# --------------------------------------------------------------------------- the articles' flawed calculator

#: The characters the articles' calculator keeps before calling ``eval``.
SEED_ALLOWED_CHARS = frozenset("0123456789.+-*/() ")
#: CPython stores 30 bits of an int in 4 bytes: log2(10) / 30 * 4 bytes per decimal digit.
_BYTES_PER_DIGIT = math.log2(10) / 30 * 4


@dataclass(frozen=True)
class FilteredEvalFlaw:
    """Why "keep only digits and operators, then ``eval``" is not safe: what the filter lets through."""

    expression: str
    filtered: str
    passes_filter: bool
    steps: tuple[str, ...]

    def __str__(self) -> str:
        verdict = "passes the filter unchanged" if self.passes_filter else f"is filtered to {self.filtered!r}"
        return "\n".join([f"{self.expression!r} {verdict}.", *self.steps])


def seed_filter(expression: str) -> str:
    """The articles' sanitiser: drop every character except digits, ``.+-*/()`` and spaces."""
    return "".join(ch for ch in expression if ch in SEED_ALLOWED_CHARS)


def filtered_eval_flaw(expression: str = "9**9**9**9") -> FilteredEvalFlaw:
    """Show, without evaluating it, how big a power tower that survives the filter would be.

    ``**`` is right-associative, so ``9**9**9**9`` is ``9**(9**(9**9))``. We follow the tower
    from the top and keep only logarithms: the digit count of each level is ``exponent ·
    log10(base)``. The calculator above refuses the same input at once, because it checks the
    size of every power before computing it.
    """
    filtered = seed_filter(expression)
    try:
        bases = [float(part) for part in filtered.replace(" ", "").split("**")]
    except ValueError:
        raise CourseError(f"{expression!r} is not a power tower like 9**9**9**9.") from None
    if len(bases) < 2 or any(b <= 1 for b in bases):
        raise CourseError(f"{expression!r} is not a power tower of numbers above 1, like 9**9**9**9.")
    value, log_digits = bases[-1], None  # the exact value while it is small, then log10(number of digits)
    steps = []
    for base in reversed(bases[:-1]):
        if log_digits is None and value * math.log10(base) < 15:
            value = base**value
            steps.append(f"{format_number(base)}**{format_number(bases[-1]) if len(steps) == 0 else '…'}"
                         f" = {format_number(value)}")
        elif log_digits is None:
            digits = value * math.log10(base)
            log_digits = math.log10(digits)
            memory = digits * _BYTES_PER_DIGIT
            steps.append(f"{format_number(base)}**… has about {digits:,.0f} digits"
                         + (f" (~{memory / 1e6:,.0f} MB as a Python int)" if memory >= 1e6 else ""))
        else:
            # digits(base**x) = x * log10(base), and x has 10**log_digits digits, so log10 of the new digit count
            # is about 10**log_digits: the size of the tower grows by one exponential per level.
            log_digits = 10**log_digits + math.log10(math.log10(base)) if log_digits < 300 else math.inf
            size = f"about 10^{log_digits:,.0f} digits" if math.isfinite(log_digits) else "too many digits to write"
            steps.append(f"{format_number(base)}**… has {size}: no computer can hold it, so eval() never returns")
    return FilteredEvalFlaw(expression, filtered, filtered == expression, tuple(steps))
