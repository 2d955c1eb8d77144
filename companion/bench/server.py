"""The server under test: `sabacc-companion serve` as a child process, watched through /proc.

    >>> import tempfile
    >>> with ServerProcess(tempfile.mkdtemp()) as srv:   # doctest: +SKIP
    ...     srv.startup_s, srv.rss_mb()

The child is the real command a Pi runs (waitress, the production thread pool and stream
cap), on 127.0.0.1 and a free port, with its own data folder, importing the package of the
interpreter that starts it (not one in the working folder). `startup_s` is the time from
`Popen` to the first successful `GET /api/v1/ping`.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: How long a server may take to answer its first request before the start counts as failed.
START_TIMEOUT_S = 30.0


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_status(pid: int) -> dict[str, str]:
    """The fields of /proc/<pid>/status (VmRSS, VmHWM, Threads, ...)."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


def kb_field_mb(value: str) -> float:
    """'12345 kB' → megabytes (MiB)."""
    return int(value.split()[0]) / 1024


def pings(port: int) -> bool:
    """Whether a server on `port` of this machine answers its ping (False while it is not
    listening yet, or has gone)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/api/v1/ping")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


class ServerProcess:
    """`sabacc-companion serve` on a free port with data folder `data`.

    `prelude` is Python run in the child before the command line starts (tests use it to
    shorten the stream heartbeat); `env` adds environment variables; `python`: the interpreter
    (another build's, for `bench --side-by-side`), this one by default.
    """

    def __init__(self, data: str | Path, prelude: str = "", env: dict[str, str] | None = None,
                 port: int | None = None, python: str | None = None):
        self.python = python or sys.executable
        self.data = Path(data)
        self.port = port or free_port()
        self.prelude = prelude
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self._startup_s: float | None = None
        self.log_path = self.data.parent / f"server-{self.port}.log"

    @property
    def startup_s(self) -> float:
        """Seconds from `Popen` to the first successful ping (raises before `start`)."""
        if self._startup_s is None:
            raise RuntimeError("the server has not been started")
        return self._startup_s

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The child's process id."""
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> "ServerProcess":
        """Start the child and wait for its first answer (sets `startup_s`)."""
        code = (
            f"{self.prelude}\n"
            "import sys\nfrom companion.cli import main\n"
            f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{self.port}', "
            f"'--data', {str(self.data)!r}]))"
        )
        log = open(self.log_path, "ab")
        env = {**os.environ, **self.env}
        t0 = time.perf_counter()
        # -P: the child imports the package this interpreter has, never one in the working
        # folder (`python -c` would put the folder first on its path): a benchmark run from a
        # checkout of another version measures the build it was started with.
        self.proc = subprocess.Popen([self.python, "-P", "-c", code], stdout=log, stderr=log,
                                     stdin=subprocess.DEVNULL, env=env)
        log.close()
        deadline = t0 + START_TIMEOUT_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; see {self.log_path}")
            if pings(self.port):
                self._startup_s = time.perf_counter() - t0
                return self
            if time.perf_counter() > deadline:
                self.kill()
                raise RuntimeError(f"the server did not answer within {START_TIMEOUT_S} s")
            time.sleep(0.002)

    def status(self) -> dict[str, str]:
        """The child's /proc status."""
        return proc_status(self.pid)

    def rss_mb(self) -> float:
        """Resident memory now (MiB)."""
        return kb_field_mb(self.status()["VmRSS"])

    def peak_rss_mb(self) -> float:
        """The highest resident memory so far (VmHWM, MiB)."""
        return kb_field_mb(self.status()["VmHWM"])

    def cpu_s(self) -> float:
        """CPU time the child has used so far, user and system, all its threads (seconds;
        /proc/<pid>/stat counts in clock ticks, 10 ms on Linux: measure over many requests)."""
        with open(f"/proc/{self.pid}/stat") as f:
            # The command name (field 2) may hold spaces: split after its closing parenthesis.
            fields = f.read().rsplit(")", 1)[1].split()
        utime, stime = int(fields[11]), int(fields[12])
        return (utime + stime) / os.sysconf("SC_CLK_TCK")

    def threads(self) -> int:
        """The child's thread count."""
        return int(self.status()["Threads"])

    def kill(self) -> None:
        """`kill -9`: no goodbye, no clean shutdown (a pulled plug, as far as the disk allows)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> int | None:
        """A clean stop (SIGTERM, as systemd does); `kill -9` if it hangs. Returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
