"""The benchmark's progress: a bar on a terminal (none where stderr is a file), and in the log
every line prefixed with the run count and an estimate of the time left. Runs finished by an
earlier invocation are counted, not listed: a rerun of a finished benchmark says so in one line.
"""

from __future__ import annotations

import sys
import time

from nhfair_jax.sweep.runner import log_line


class Progress:
    """Counts the benchmark's runs (trials and seed re-runs) toward `total`.

    `update(k)` counts runs done in this process, `finished_earlier(k)` runs found finished;
    `log(message)` writes "[12/52 runs, about 3 min left] message". The estimate is the mean time
    of the runs done here times the runs left; none before the first."""

    def __init__(self, total: int, *, enabled: bool = True, write=None):
        from tqdm.auto import tqdm

        self.total, self.done, self.here, self.earlier = int(total), 0, 0, 0
        self._write = write or log_line
        self._t0 = time.perf_counter()
        self.bar = tqdm(total=self.total, desc="benchmark", unit="run", file=sys.stderr,
                        disable=None if enabled else True)  # None: off where stderr is a file

    def update(self, k: int = 1) -> None:
        self.done += k
        self.here += k
        self.bar.update(k)

    def finished_earlier(self, k: int = 1) -> None:
        self.done += k
        self.earlier += k
        self.bar.update(k)

    def eta(self) -> str:
        left = max(self.total - self.done, 0)
        if self.here == 0 or left == 0:
            return ""
        seconds = (time.perf_counter() - self._t0) / self.here * left
        return (f", about {seconds / 60:.0f} min left" if seconds >= 90
                else f", about {seconds:.0f} s left")

    def log(self, message: str) -> None:
        self._write(f"[{min(self.done, self.total)}/{self.total} runs{self.eta()}] {message}")

    def close(self) -> None:
        self.bar.close()
        if self.earlier:
            self._write(f"{self.earlier} of the {self.total} runs were finished by an earlier "
                        "invocation: read, not re-run")
