"""Shared fixtures: the command line to compare against, and the judges' fixtures.

The package itself never runs the command line; its tests do, to check that both give
the same answers. ``ALEA_CLI`` names the binary (``run-tests`` builds it); by default
``target/release/alea`` of this repository.
"""

from __future__ import annotations

import _thread
import contextlib
import json
import os
import pathlib
import signal
import subprocess
import threading
from typing import Any, Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The judges' samples and known answers, as the command line's tests use them.
DATA = ROOT / "crates" / "alea-cli" / "tests" / "data"
EXAMPLES = ROOT / "examples"


class Cli:
    """Runs ``alea`` and reads what it prints."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path

    def text(self, *args: str, input: str | None = None) -> str:
        done = subprocess.run(
            [str(self.path), *args],
            input=input,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise AssertionError(
                f"alea {' '.join(args)} exited with {done.returncode}: {done.stderr}"
            )
        return done.stdout

    def json(self, *args: str, input: str | None = None) -> list[Any]:
        """Each line of the output as JSON."""
        return [json.loads(line) for line in self.text(*args, input=input).splitlines() if line]


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = pathlib.Path(os.environ.get("ALEA_CLI", ROOT / "target" / "release" / "alea"))
    if not path.exists():
        raise AssertionError(f"{path} not found: build it with `cargo build --release` (run-tests does)")
    return Cli(path)


@pytest.fixture(scope="session")
def data() -> pathlib.Path:
    return DATA


@pytest.fixture(scope="session")
def examples() -> pathlib.Path:
    return EXAMPLES


@contextlib.contextmanager
def ctrl_c_after(seconds: float) -> Iterator[None]:
    """Ctrl-C after `seconds`, as `_thread.interrupt_main` simulates it. Python's own
    handler is installed for the while: a process started in the background inherits
    SIGINT ignored, and then `interrupt_main` simulates nothing."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
