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
