"""`huerta serve`: it serves the page on the port it names until Ctrl-C (one line, status 130,
as every command), and refuses a bad port, a missing runs folder or a port in use in one
line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from huerta.training.cli import main
from huerta.web import bind


def test_serve_answers_on_the_port_it_names_and_stops_on_ctrl_c(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "huerta.training.cli", "serve", "--port", "0", "--runs",
         str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        assert line.startswith("huerta serve: http://127.0.0.1:"), line
        url = line.split()[2]
        deadline = time.monotonic() + 120
        while True:
            try:
                page = httpx.get(url, timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert page.status_code == 200 and "<title>huerta" in page.text
        listing = httpx.get(url + "api/runs", timeout=5).json()
        assert listing["exists"] and listing["tournaments"] == []
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    # as every command: Ctrl-C prints one line and exits with status 130
    assert (process.returncode, err) == (130, "huerta serve: interrupted\n")


def test_serve_refuses_a_missing_runs_folder_in_one_line(capsys):
    assert main(["serve", "--runs", "/no/such/folder"]) == 2
    err = capsys.readouterr().err
    assert err == "huerta serve: error: --runs /no/such/folder: no such folder\n"


def test_serve_refuses_a_port_out_of_range(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "70000"])
    assert exit_info.value.code == 2
    assert "--port: 70000 is out of range" in capsys.readouterr().err


def test_serve_refuses_a_port_in_use(capsys):
    taken = bind("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        assert main(["serve", "--port", str(port)]) == 2
    finally:
        taken.close()
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"huerta serve: error: cannot listen on 127.0.0.1:{port}: ")
    assert "\n" not in err


def test_serve_refuses_a_remote_host_without_allow_remote_in_one_line(capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("huerta serve: error: --host 0.0.0.0: ")
    assert "--allow-remote" in err and "every machine that can reach" in err


def test_allow_remote_prints_what_it_exposes(monkeypatch, tmp_path):
    """serve() with a remote --host and allow_remote: the address and a warning of what it
    exposes (the socket is bound on 127.0.0.1 here: tests never listen elsewhere)."""
    import uvicorn

    import huerta.web as web

    monkeypatch.setattr(web, "bind", lambda host, port: bind("127.0.0.1", 0))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: None)
    lines = []
    web.serve("192.0.2.7", 0, tmp_path, log=lines.append, allow_remote=True)
    assert lines[0].startswith("huerta serve: http://192.0.2.7:")
    assert lines[1].startswith("huerta serve: warning: listening on 192.0.2.7 lets every "
                               "machine that can reach this one open the page")
    assert "no password" in lines[1] and str(tmp_path) in lines[1]


def test_a_remote_server_answers_ip_addresses_and_its_own_names_only(tmp_path):
    """With allow_remote, a Host that is an IP address (no DNS answer re-points it) or this
    machine's name is the server's; any other name (DNS rebinding) is refused."""
    import socket

    from conftest import LiveServer

    live = LiveServer(tmp_path, allow_remote=True)
    live.start()
    port = live.url.rsplit(":", 1)[1]
    try:
        url = live.url + "/api/meta"
        for host in ("10.1.2.3", "[fe80::1]", socket.gethostname(), "localhost"):
            assert httpx.get(url, headers={"Host": f"{host}:{port}"}).status_code == 200, host
        assert httpx.get(url, headers={"Host": f"rebind.example:{port}"}).status_code == 403
    finally:
        live.stop()


# run in a process of its own: uvicorn configures logging onto the streams it is given, and in
# the test process those are pytest's capture files, which a worker then finds closed
SWALLOWED_CTRL_C = """
import sys
import uvicorn
import huerta.web as web
from huerta.training.cli import main

def caught_ctrl_c(self, sockets):
    self.should_exit = True  # what uvicorn's signal handler sets; the re-raise was lost

web.bind = lambda host, port, _bind=web.bind: _bind("127.0.0.1", 0)
uvicorn.Server.run = caught_ctrl_c
sys.exit(main(["serve", "--port", "0", "--runs", sys.argv[1]]))
"""


def test_a_ctrl_c_that_asyncio_swallowed_still_ends_the_command_with_130(tmp_path):
    """uvicorn re-raises the Ctrl-C it caught after shutting down, but asyncio.run's own handler
    may swallow it (seen on a loaded machine: status 0, no line): serve says it all the same."""
    done = subprocess.run([sys.executable, "-c", SWALLOWED_CTRL_C, str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "huerta serve: interrupted\n"
