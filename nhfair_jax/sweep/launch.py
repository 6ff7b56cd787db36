"""Workers as a job array, through submitit: on Slurm (one `sbatch --array` job), or as processes
on this machine (submitit's local executor, which the tests use).

`JobArray` submits N calls of one picklable callable (`function(index)` for index 0..N-1),
records their job ids in FOLDER/jobs.json and keeps the workers' pickles and logs in
FOLDER/logs/ (`<job id>_0_log.err` holds a worker's log), so that the same command run again finds them: still queued or running, it
waits for them or says how they stand; ended, the caller decides whether work is left and
submits again. A worker the scheduler stops (preemption, the time limit) gets submitit's signal
(USR2): when the callable has a `checkpoint` method, submitit requeues the job, which calls the
callable again from the start; everything a worker does must therefore be resumable from what
it wrote (the benchmark's is: run directories, their checkpoints and the study).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import ml_collections

from nhfair_jax.errors import UserError
from nhfair_jax.rundir import read_json, write_json

LAUNCHERS = ("local", "slurm")
LOCAL_TIMEOUT_MIN = 7 * 24 * 60  # local workers run until they are done


def slurm_options() -> ml_collections.ConfigDict:
    """The `--slurm.*` settings of a job array (empty or 0: Slurm's own default)."""
    c = ml_collections.ConfigDict()
    c.partition = ""
    c.time = 240  # minutes a worker may run; it is requeued at the limit and resumes
    c.gpus_per_task = 1
    c.cpus_per_task = 0
    c.mem_gb = 0
    c.account = ""
    c.qos = ""
    c.constraint = ""
    c.setup = ()  # shell lines run before each worker (module load ..., source venv/bin/activate)
    c.array_parallelism = 0  # workers running at once; 0: all of them
    c.additional = ""  # other sbatch options, "key=value,key=value" (e.g. "mail-type=END")
    return c


def _sbatch_parameters(options, workers: int) -> dict:
    """SlurmExecutor parameters of the `--slurm.*` settings."""
    params = {"time": int(options.time), "nodes": 1, "ntasks_per_node": 1,
              "job_name": "nhfair-worker",
              "array_parallelism": int(options.array_parallelism) or int(workers)}
    for key in ("partition", "account", "qos", "constraint"):
        if options[key]:
            params[key] = str(options[key])
    for key in ("gpus_per_task", "cpus_per_task"):
        if int(options[key]) > 0:
            params[key] = int(options[key])
    if int(options.mem_gb) > 0:
        params["mem"] = f"{int(options.mem_gb)}GB"
    if options.setup:
        params["setup"] = [str(line) for line in options.setup]
    extra = {}
    for item in filter(None, (s.strip() for s in str(options.additional).split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--slurm.additional: {item!r} is not key=value (e.g. "
                            "--slurm.additional=mail-type=END,mail-user=me@example.org)")
        extra[key.strip()] = value.strip()
    if extra:
        params["additional_parameters"] = extra
    return params


def local_gpus() -> list[int]:
    """The GPUs this machine shows (CUDA_VISIBLE_DEVICES if set, else `nvidia-smi -L`)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return [int(g) for g in visible.split(",") if g.strip().isdigit()]
    if shutil.which("nvidia-smi") is None:
        return []
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    return [i for i, line in enumerate(out.stdout.splitlines()) if line.startswith("GPU ")]


def _submitit():
    try:
        import submitit
    except ImportError as e:
        raise UserError("--launcher needs submitit: pip install 'nhfair-jax[cluster]'") from e
    return submitit


class JobArray:
    """The workers of one command, submitted and recorded under `folder`."""

    def __init__(self, folder: str, launcher: str):
        if launcher not in LAUNCHERS:
            raise UserError(f"--launcher must be one of {', '.join(LAUNCHERS)}, got {launcher!r}")
        self.folder, self.launcher = os.path.abspath(folder), launcher
        self.record_path = os.path.join(self.folder, "jobs.json")
        self.logs = os.path.join(self.folder, "logs")
        self._jobs = {}  # job id -> submitit Job, for jobs this process submitted

    # --- the record ------------------------------------------------------------------------

    def record(self) -> dict | None:
        return read_json(self.record_path) if os.path.exists(self.record_path) else None

    def job_ids(self) -> list[str]:
        record = self.record()
        return list(record["jobs"]) if record else []

    def recorded_launcher(self) -> str:
        record = self.record()
        return record["launcher"] if record else self.launcher

    # --- states ----------------------------------------------------------------------------

    def _job(self, job_id: str):
        if job_id in self._jobs:
            return self._jobs[job_id]
        submitit = _submitit()
        cls = submitit.SlurmJob if self.recorded_launcher() == "slurm" else submitit.LocalJob
        return cls(folder=self.logs, job_id=job_id)

    def running(self, job_id: str) -> bool:
        """Whether a job is still queued or running."""
        if job_id in self._jobs:
            return not self._jobs[job_id].done()
        if self.recorded_launcher() == "local":  # a controller process of an earlier command
            return _local_controller_alive(job_id)
        return not self._job(job_id).done(force_check=True)

    def active(self) -> list[str]:
        return [j for j in self.job_ids() if self.running(j)]

    def problems(self) -> list[str]:
        """One line per ended job that did not return: an error, or no result (killed, or out
        of time and requeues), with its log's path."""
        out = []
        for job_id in self.job_ids():
            job = self._job(job_id)
            if not job.paths.result_pickle.exists():
                out.append(f"worker {job_id} ended without a result (killed, or out of time); "
                           f"its log: {job.paths.stderr}")
                continue
            error = job.exception()
            if error is not None:
                last = [line for line in str(error).splitlines() if line.strip()]
                reason = next((line for line in reversed(last) if "Error" in line), last[-1])
                out.append(f"worker {job_id} failed: {reason.strip()}; its log: "
                           f"{job.paths.stderr}")
        return out

    # --- submitting and waiting ------------------------------------------------------------

    def submit(self, function, workers: int, options) -> list[str]:
        """Submits `function(i)` for i in 0..workers-1; returns the job ids."""
        submitit = _submitit()
        workers = int(workers)
        folder = self.logs
        try:
            if self.launcher == "slurm":
                try:
                    executor = submitit.SlurmExecutor(folder=folder)
                except RuntimeError as e:
                    raise UserError("--launcher slurm: no Slurm here (srun is not on PATH); run "
                                    "the command on the cluster's login node, or use "
                                    "--launcher local") from e
                executor.update_parameters(**_sbatch_parameters(options, workers))
                jobs = executor.map_array(function, list(range(workers)))
            else:
                jobs = self._submit_local(submitit, folder, function, workers)
        except UserError:
            raise
        except Exception as e:  # noqa: BLE001 - sbatch's refusals arrive as several types
            lines = [line for line in str(e).splitlines() if line.strip()]
            raise UserError(f"the {self.launcher} launcher could not submit the workers: "
                            f"{lines[-1] if lines else type(e).__name__}; check --slurm.* "
                            "(partition, time, account)") from e
        self._jobs = {job.job_id: job for job in jobs}
        os.makedirs(self.folder, exist_ok=True)
        write_json(self.record_path, {"launcher": self.launcher, "workers": workers,
                                      "jobs": [job.job_id for job in jobs],
                                      "submitted": time.strftime("%Y-%m-%dT%H:%M:%S")})
        return [job.job_id for job in jobs]

    def _submit_local(self, submitit, folder, function, workers):
        """One process per worker; on a machine with GPUs worker i gets GPU i modulo their
        number, and workers sharing a GPU split its memory (JAX would take 75% each)."""
        executor = submitit.LocalExecutor(folder=folder)
        gpus = local_gpus()
        share = -(-workers // len(gpus)) if gpus else 1
        jobs = []
        for i in range(workers):
            params = {"timeout_min": LOCAL_TIMEOUT_MIN}
            if gpus:
                params.update(gpus_per_node=1, visible_gpus=(gpus[i % len(gpus)],))
            if share > 1:
                params["setup"] = [f"export XLA_PYTHON_CLIENT_MEM_FRACTION={0.9 / share:.2f}"]
            executor.update_parameters(**params)
            jobs.append(executor.submit(function, i))
        return jobs

    def wait(self, *, tick=None, tick_s: float = 60.0, poll_s: float | None = None) -> None:
        """Returns once no recorded job is queued or running; calls tick() every tick_s."""
        poll_s = poll_s or (1.0 if self.recorded_launcher() == "local" else 30.0)
        last = time.monotonic()
        while self.active():
            time.sleep(poll_s)
            if tick is not None and time.monotonic() - last >= tick_s:
                tick()
                last = time.monotonic()

    def cancel(self) -> None:
        """Stops the workers this process started on this machine (local launcher)."""
        for job in self._jobs.values():
            if self.launcher == "local" and not job.done():
                job.cancel()

    def close(self) -> None:
        """Lets go of this process's job handles (workers keep running): before the
        interpreter shuts down, where submitit's handles cannot clean up after themselves."""
        self._jobs.clear()


def _local_controller_alive(job_id: str) -> bool:
    """Whether the local executor's controller process `job_id` (its pid) still runs."""
    try:
        pid = int(job_id)
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"submitit" in f.read()  # not a reused pid
    except OSError:
        return True  # no /proc (macOS): the pid is alive


def describe(array: JobArray) -> str:
    """'2 of 2 workers queued or running (local processes 123, 124)'."""
    ids = array.job_ids()
    active = array.active()
    kind = "slurm jobs" if array.recorded_launcher() == "slurm" else "local processes"
    return (f"{len(active)} of {len(ids)} workers queued or running ({kind} "
            f"{', '.join(ids)}; logs in {array.logs})")

