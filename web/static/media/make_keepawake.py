"""Make keepawake.webm: the silent, tiny, looping video that keeps a phone's screen on.

On plain http (the Pi's address) a page is not a secure context, so it has no Screen Wake
Lock; a playing video keeps the screen on all the same (the technique NoSleep.js uses). The
video is made here, by the browser the tests use, so that no binary of unknown origin is
shipped: a 2-second 16x16 canvas recorded by MediaRecorder as VP8 WebM.

    python web/static/media/make_keepawake.py      # writes keepawake.webm beside this file
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).with_name("keepawake.webm")
RECORD = """async () => {
  const canvas = document.createElement("canvas");
  canvas.width = 16; canvas.height = 16;
  const ctx = canvas.getContext("2d");
  const stream = canvas.captureStream(10);
  const rec = new MediaRecorder(stream, { mimeType: "video/webm;codecs=vp8", videoBitsPerSecond: 20000 });
  const parts = [];
  rec.ondataavailable = (e) => parts.push(e.data);
  const done = new Promise((r) => { rec.onstop = r; });
  rec.start();
  for (let i = 0; i < 20; i++) {           // frames must change, or none are encoded
    ctx.fillStyle = i % 2 ? "#000001" : "#000000";
    ctx.fillRect(0, 0, 16, 16);
    await new Promise((r) => setTimeout(r, 100));
  }
  rec.stop();
  await done;
  const buf = await new Blob(parts).arrayBuffer();
  let s = ""; for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s);
}"""


def main() -> None:
    """Record the video in headless Chromium and write it."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto("about:blank")
        OUT.write_bytes(base64.b64decode(page.evaluate(RECORD)))
        browser.close()
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
