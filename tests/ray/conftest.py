"""A real local Ray cluster for the Ray tests, started and stopped by the tests themselves.

`ray start --head --block` runs in a process group of its own, with a short temporary folder
under /tmp (Ray's socket paths are length-limited), free ports for every Ray service (so another
Ray on this machine is never touched) and token authentication with a token made for this
session. The head offers 2 CPUs: the training's two env runners, or two tournament games, run as
two worker processes. At the end the cluster's own process group is stopped (SIGTERM, then
SIGKILL): `ray stop` would stop every Ray of the machine, not only this one.

The token goes into the environment here, when pytest imports this file: Ray reads its
authentication settings once, and huerta imports Ray only later, inside the tests.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

TOKEN = secrets.token_hex(16)
os.environ["RAY_AUTH_MODE"] = "token"
os.environ["RAY_AUTH_TOKEN"] = TOKEN
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
if "ray" in sys.modules:  # Ray already read its settings: make it read them again
    with contextlib.suppress(ImportError, AttributeError):
        from ray._raylet import AuthenticationTokenLoader, Config

        Config.initialize("")
        AuthenticationTokenLoader.instance().reset_cache()

CPUS = 2
START_TIMEOUT = 90


@dataclass
class Cluster:
    address: str
    temp_dir: Path
    pid: int


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: a process group of its own, and SIGTERM when pytest dies
    (Linux), so a killed test run leaves no cluster behind."""
    os.setsid()
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _ray_executable() -> str:
    ray = Path(sys.executable).with_name("ray")
    if not ray.exists():
        pytest.fail(f"the Ray tests need Ray RLlib: pip install 'huerta[ray]' ({ray} missing)")
    return str(ray)


def _stop(process: subprocess.Popen) -> None:
    """Stop the cluster's process group only (the head and everything it started)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the head drains for 30 s after a SIGTERM
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def ray_cluster() -> Cluster:
    """A running two-CPU cluster on 127.0.0.1 (its address in `.address`)."""
    try:
        import ray
        import ray.rllib
    except ImportError as exc:
        pytest.fail(f"the Ray tests need Ray RLlib: pip install 'huerta[ray]' ({exc})")
    temp = Path(tempfile.mkdtemp(prefix="hr-", dir="/tmp"))
    port = _free_port()
    command = [
        _ray_executable(), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
        "--port", str(port), "--temp-dir", str(temp / "r"), "--num-cpus", str(CPUS),
        "--num-gpus", "0", "--include-dashboard", "false", "--disable-usage-stats",
        "--object-store-memory", str(200 * 2**20),
        "--ray-client-server-port", str(_free_port()), "--dashboard-port", str(_free_port()),
        "--dashboard-agent-listen-port", str(_free_port()),
        "--dashboard-agent-grpc-port", str(_free_port()),
        "--runtime-env-agent-port", str(_free_port()),
        "--metrics-export-port", str(_free_port()),
    ]
    log = (temp / "head.log").open("w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                               preexec_fn=_die_with_parent,
                               env={**os.environ, "TMPDIR": str(temp)})  # models unpack here
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "Ray runtime started" not in (temp / "head.log").read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the test cluster did not start:\n"
                            + (temp / "head.log").read_text()[-3000:])
            time.sleep(0.5)
        yield Cluster(address=f"127.0.0.1:{port}", temp_dir=temp, pid=process.pid)
    finally:
        import ray

        if ray.is_initialized():
            ray.shutdown()
        _stop(process)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)
