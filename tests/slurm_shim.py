"""A stand-in for Slurm's commands on one machine, for the launcher's Slurm path: `sbatch`,
`srun`, `sacct`, `scancel` and `scontrol requeue`, each a symlink to this script (see
`install`), with their state in $SLURM_SHIM_DIR.

- `sbatch SCRIPT` keeps a copy of SCRIPT (`<job id>.sbatch`), prints "Submitted batch job ID"
  and runs every task of its `#SBATCH --array=0-N%P` (all of them at once, P is ignored) as
  `bash SCRIPT` in a new session, with the SLURM_* variables a task sees and its `--output` /
  `--error` files (%A, %a, %j filled in); when a task's script ends, its exit status goes to
  `<job id>_<task>.rc`.
- `srun [--unbuffered] [--output F] [--error F] [--cpu-bind X] [-v...] COMMAND` runs COMMAND
  with those files (%t is 0).
- `sacct -o JobID,State,NodeList --parsable2 -j ID ...` reports each task: RUNNING while it has
  no exit status, then COMPLETED (status 0) or FAILED.
- `scancel ID` kills every task of ID; `scontrol requeue ID_T` runs task T again once its
  current run has ended.
"""

from __future__ import annotations

import glob
import os
import re
import signal
import subprocess
import sys

NAMES = ("sbatch", "srun", "sacct", "scancel", "scontrol")


def install(bin_dir: str, state_dir: str) -> dict:
    """Makes the Slurm commands in `bin_dir`; returns the environment to run them in."""
    os.makedirs(bin_dir, exist_ok=True)
    os.makedirs(state_dir, exist_ok=True)
    for name in NAMES:
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} {name} \"$@\"\n")
        os.chmod(path, 0o755)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"],
            "SLURM_SHIM_DIR": state_dir}


def _state(*parts) -> str:
    return os.path.join(os.environ["SLURM_SHIM_DIR"], *parts)


def _options(script: str) -> dict:
    out = {}
    for line in open(script):
        m = re.match(r"#SBATCH --([\w-]+)(?:=(.*))?$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _fill(path: str, job: str, task: str) -> str:
    return path.replace("%A", job).replace("%a", task).replace("%j", f"{job}_{task}")


def sbatch(args) -> None:
    script = args[-1]
    counter = _state("next_id")
    job = str(int(open(counter).read()) if os.path.exists(counter) else 1000)
    with open(counter, "w") as f:
        f.write(str(int(job) + 1))
    with open(_state(f"{job}.sbatch"), "w") as f:
        f.write(open(script).read())
    opts = _options(script)
    first, last = (opts.get("array") or "0-0").split("%")[0].split("-")
    for task in range(int(first), int(last) + 1):
        _start(job, str(task), _state(f"{job}.sbatch"))
    print(f"Submitted batch job {job}")


def _start(job: str, task: str, script: str) -> None:
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "_task", job, task, script],
                     start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _task(job: str, task: str, script: str) -> None:
    opts = _options(script)
    env = {**os.environ, "SLURM_JOB_ID": str(int(job) * 1000 + int(task)),
           "SLURM_ARRAY_JOB_ID": job, "SLURM_ARRAY_TASK_ID": task, "SLURM_NTASKS": "1",
           "SLURM_JOB_NUM_NODES": "1", "SLURM_NODEID": "0", "SLURM_PROCID": "0",
           "SLURM_LOCALID": "0", "SLURM_JOB_NODELIST": "localhost"}
    out = open(_fill(opts["output"], job, task), "a")
    err = open(_fill(opts.get("error", opts["output"]), job, task), "a")
    with open(_state(f"{job}_{task}.pid"), "w") as f:
        f.write(str(os.getpid()))
    while True:
        code = subprocess.call(["bash", script], env=env, stdout=out, stderr=err)
        if os.path.exists(_state(f"{job}_{task}.requeue")):
            os.remove(_state(f"{job}_{task}.requeue"))
            continue
        break
    with open(_state(f"{job}_{task}.rc"), "w") as f:
        f.write(str(code))


def srun(args) -> None:
    files, i = {}, 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] in ("--output", "--error", "--cpu-bind"):
            files[args[i]] = args[i + 1]
            i += 2
        else:
            i += 1
    job, task = os.environ["SLURM_ARRAY_JOB_ID"], os.environ["SLURM_ARRAY_TASK_ID"]
    streams = {k: open(_fill(v, job, task).replace("%t", "0"), "a") for k, v in files.items()
               if k != "--cpu-bind"}
    sys.exit(subprocess.call(args[i:], stdout=streams.get("--output"),
                             stderr=streams.get("--error")))


def sacct(args) -> None:
    jobs = [args[i + 1] for i, a in enumerate(args) if a == "-j"]
    print("JobID|State|NodeList")
    for job in jobs:
        for pid_file in sorted(glob.glob(_state(f"{job.split('_')[0]}_*.pid"))):
            task = os.path.basename(pid_file)[:-4]
            rc = _state(f"{task}.rc")
            state = "RUNNING" if not os.path.exists(rc) else (
                "COMPLETED" if open(rc).read().strip() == "0" else "FAILED")
            print(f"{task}|{state}|localhost")


def scancel(args) -> None:
    for job in (a for a in args if not a.startswith("-")):
        for pid_file in glob.glob(_state(f"{job.split('_')[0]}_*.pid")):
            try:
                os.killpg(int(open(pid_file).read()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass


def scontrol(args) -> None:
    if args[:1] == ["requeue"]:
        open(_state(f"{args[1]}.requeue"), "w").close()


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "_task":
        _task(*rest)
    else:
        {"sbatch": sbatch, "srun": srun, "sacct": sacct, "scancel": scancel,
         "scontrol": scontrol}[command](rest)
