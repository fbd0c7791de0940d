"""The one exception family for errors a user can cause (bad file, bad option, no GPU)."""

from __future__ import annotations

from pathlib import Path


class MolsError(Exception):
    """An error the user can fix; the CLI prints it without a traceback and exits with code 1."""


class OptionError(MolsError):
    """A bad option. The message names `parameter` (and the `mentioned` ones, written {name} in `text`) as the
    library does (tenure); `flagged()` names them as the CLI does (--tenure)."""

    def __init__(self, parameter: str, text: str, *mentioned: str):
        self.parameter, self.text, self.mentioned = parameter, text, mentioned
        super().__init__(self.render(str))

    def render(self, show) -> str:
        """The message with each parameter's name written by `show`."""
        text = self.text
        for name in self.mentioned:
            text = text.replace("{" + name + "}", show(name))
        return f"{show(self.parameter)}{'' if text[:1] in (':', ',') else ' '}{text}"

    def flagged(self) -> str:
        return self.render(flag)


def flag(parameter: str) -> str:
    """The CLI's flag of a parameter: run_length -> --run-length."""
    return "--" + parameter.replace("_", "-")


class InstanceError(MolsError):
    """A malformed or missing instance file; names the file and, where known, the line."""

    def __init__(self, path: str | Path, message: str, line: int | None = None):
        self.path = Path(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else str(self.path)
        super().__init__(f"{where}: {message}")


class BackendError(MolsError):
    """A backend that cannot run here, such as `gpu` on a machine without a CUDA device."""


def reason(err: OSError) -> str:
    """Why an operating-system call failed, in words (some OSErrors carry no strerror)."""
    return err.strerror or str(err) or type(err).__name__


EXCERPT = 60  # characters of a bad line or token that an error message quotes


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """text quoted for an error message, cut to `limit` characters (a junk line may be kilobytes long)."""
    text = text.strip()
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
