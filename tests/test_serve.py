"""`sabacc-companion serve`: the banner phones follow, and a real server answering."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
import urllib.request

from companion.serve import phone_url, print_banner


def test_phone_url_names_a_reachable_address_not_the_wildcard():
    url = phone_url("0.0.0.0", 8023)
    assert re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8023/", url)
    assert "0.0.0.0" not in url
    assert phone_url("192.168.4.1", 80) == "http://192.168.4.1:80/"


def test_banner_prints_the_url_and_a_qr_code():
    out = io.StringIO()
    print_banner("http://192.168.4.1:8023/", out)
    text = out.getvalue()
    assert "http://192.168.4.1:8023/" in text
    qr_rows = [line for line in text.splitlines() if "█" in line or "▀" in line or "▄" in line]
    assert len(qr_rows) >= 10, "no QR code drawn"


def test_serve_starts_waitress_and_serves_the_site(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        deadline = time.monotonic() + 20
        url = None
        while time.monotonic() < deadline and url is None:
            line = proc.stdout.readline()
            m = re.search(r"phones open (http://\S+)", line)
            if m:
                url = m.group(1)
        assert url, "serve printed no URL"
        with urllib.request.urlopen(url + "api/v1/openapi.json", timeout=5) as resp:
            assert resp.status == 200
            assert resp.headers["Server"].startswith("waitress")
        assert (tmp_path / "data").is_dir()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
