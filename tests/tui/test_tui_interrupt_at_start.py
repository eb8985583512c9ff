"""ctrl+c at any moment of the start-up (issue 29, item 3): before the app has the terminal, a
KeyboardInterrupt lands inside imports or while the demo is written, and printed a traceback. Now it
ends the command quietly with 130 (128 + SIGINT, as a shell reports it), and the demo's folder goes.
The console script runs in a pseudo-terminal, as a person's terminal runs it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from terminal import Terminal


@pytest.mark.parametrize("after_s", [0.0, 0.05, 0.15, 0.3, 0.6])
def test_ctrl_c_during_the_start_of_the_demo_ends_it_without_a_traceback(tmp_path: Path, after_s: float) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    app = Terminal(["demo"], {"TMPDIR": str(temp)})
    try:
        time.sleep(after_s)
        # ctrl+c as the terminal takes it: SIGINT while the line is cooked (before the app has the
        # terminal), a key once the app has it raw (then twice quits)
        os.write(app.fd, b"\x03")
        status = app.wait(1)
        if status is None:  # the app has the terminal (a press before it took it may be flushed): twice quits
            os.write(app.fd, b"\x03")
            time.sleep(0.3)
            os.write(app.fd, b"\x03")
            status = app.wait(20)
        app.drain()
    finally:
        app.close()
    assert b"Traceback" not in app.output, app.output.decode(errors="replace")[-3000:]
    # 0: the app quit; 130: the start was interrupted; -2: SIGINT came before Python took it over
    assert status in (0, 130, -2), app.output.decode(errors="replace")[-3000:]
    assert list(temp.iterdir()) == []  # the demo's folder went
