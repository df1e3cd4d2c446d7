"""Exercise checks for the notebooks: a failed check says in one sentence what is wrong.

A learner who runs a check before finishing the exercise should read what to do next, not a
traceback into the package. :class:`ExerciseError` renders as that one sentence in Jupyter
(IPython shows ``_render_traceback_`` instead of the traceback), and :func:`attempt` turns
whatever the learner's code raises into such a sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: What the learner edition leaves in place of a solution's value (see ragcourse.student).
UNSET = ...


class ExerciseError(AssertionError):
    """A check that failed; its message is the whole story."""

    def _render_traceback_(self) -> list[str]:
        return [f"✗ {self}"]


def expect(condition: object, message: str) -> None:
    """Fail the check with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ExerciseError(message)


def given(value: Any, name: str) -> Any:
    """``value``, or a failed check when the learner has not set ``name`` yet."""
    if value is UNSET or value is None:
        raise ExerciseError(f"`{name}` is not set yet: write your solution in the cell above, run it, then run "
                            "this check again.")
    return value


def attempt(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the learner's ``function``; anything it raises becomes a failed check that names the problem."""
    name = getattr(function, "__name__", "your function")
    try:
        return function(*args, **kwargs)
    except ExerciseError:
        raise
    except NotImplementedError:
        raise ExerciseError(f"`{name}` is not written yet: replace its `raise NotImplementedError` with your "
                            "code, run the cell, then run this check again.") from None
    except Exception as exc:  # noqa: BLE001 - any mistake in the learner's code is reported as a sentence
        raise ExerciseError(f"`{name}` raised {type(exc).__name__}: {exc}") from None
