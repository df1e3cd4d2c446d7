"""One error type for everything a learner can fix, shown as one line in a notebook.

A stack trace teaches nothing when the fix is "set this variable", so every error the
course raises on purpose is a :class:`CourseError` whose message says what to change.
"""

from __future__ import annotations


class CourseError(Exception):
    """A problem the user can fix; the message is one line that says how."""


def install_notebook_handler() -> None:
    """Show :class:`CourseError` (and the OpenAI SDK's connection errors) as one line in IPython."""
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: tracebacks are fine there
        return
    shell = get_ipython()
    if shell is None:
        return

    def one_line(shell, etype, value, tb, tb_offset=None):  # noqa: ANN001 - IPython's signature
        print(f"{etype.__name__}: {value}")

    shell.set_custom_exc((CourseError,), one_line)
