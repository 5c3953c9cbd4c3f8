"""What the SciPy/NumPy side (peers.py) and the compiled peers
(compiled.py) of the comparison share: the CPU timer and the set-up of
case 1, LuGre stick-slip."""

import statistics
import time

import numpy as np


def timed(rounds, f):
    """Median process CPU time of `rounds` calls of f (one call if it takes
    longer than 5 s) and the last result."""
    times = []
    while True:
        t0 = time.process_time()
        out = f()
        times.append(time.process_time() - t0)
        if len(times) >= rounds or times[0] > 5.0:
            return statistics.median(times), out


# ------------------------------------------------------------------ case 1
# LuGre (Canudas de Wit, Olsson, Åström, Lischinsky 1995) under a unit mass
# pulled through a spring k = 2 whose end moves at 0.1 m/s.
K, RATE = 2.0, 0.1
S0, S1, S2, FC, FS, VS = 1e5, 316.22776601683796, 0.4, 1.0, 1.5, 0.001
LUGRE_ATOL = np.array([1e-9, 1e-8, 1e-11])  # position, velocity, state
LUGRE_ERROR = 1e-5  # the accuracy at which the issue sets the LuGre goal [m]
RTOL_LADDER = [1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8]  # as in src/main.rs


def fastest_at_error(settings, error, time_it):
    """At the goal's accuracy, the work a user after it would do: for each
    setting (a largest step, an absolute tolerance, ...), the loosest rtol of
    RTOL_LADDER whose error(rtol, setting) is at most LUGRE_ERROR, timed there
    by time_it(rtol, setting) (a row with "cpu_s"); the fastest row, or None
    when no setting reaches the error. As src/main.rs's fastest_at_error."""
    best = None
    for setting in settings:
        r = next((r for r in RTOL_LADDER if error(r, setting) <= LUGRE_ERROR), None)
        if r is not None:
            row = time_it(r, setting)
            if best is None or row["cpu_s"] < best["cpu_s"]:
                best = row
    return best
