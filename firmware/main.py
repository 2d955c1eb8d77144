"""The box's program: MicroPython runs this file at power-on.

One loop, no threads and no interrupts: wait up to `POLL_MS` for a line from the host on
USB serial (`select.poll` on `sys.stdin`, read with `readline()`, the one way that is
reliable on the Pico), then read the button and let `modes.Box` update the LED and buzzer.
Everything the box decides lives in `modes.py`; the pins are in `board.py`.
"""

import os
import select
import sys
import time

import settings
import ticks
from board import Board
from buttons import Button
from modes import Box

#: How long one turn of the loop waits for the host: short enough for a crisp button and
#: smooth LED patterns, long enough to leave the CPU idle most of the time.
POLL_MS = 5

_OUT = getattr(sys.stdout, "buffer", None)


def write(text):
    """Send one line to the host, ended by CR LF as PROTOCOL.md describes."""
    try:
        if _OUT is not None:
            # The raw byte stream: the same CR LF on the Pico's USB and on the unix port.
            _OUT.write(text.encode() + b"\r\n")
        else:
            sys.stdout.write(text + "\n")  # the text stream adds the CR itself
    except OSError:
        pass  # nobody is listening (USB not opened): the line is lost, as on a real cable


def rand_below(n):
    """A fair random integer in 0..n-1 from the hardware random source (`os.urandom`)."""
    bits = 1
    while (1 << bits) < n:
        bits += 1
    nbytes = (bits + 7) // 8
    while True:  # draw again when over n, so that every face is equally likely
        value = int.from_bytes(os.urandom(nbytes), "big") & ((1 << bits) - 1)
        if value < n:
            return value


def run():
    """Set up the board and serve the button and the host until power-off."""
    board = Board()
    now = ticks.now()
    held = board.pressed()  # held at power-on: start standalone, as dice
    box = Box(board, write, rand_below, mode="dice" if held else settings.MODE,
              trigger=settings.TRIGGER,
              timer=(settings.TIMER_MEAN, settings.TIMER_MIN, settings.TIMER_MAX), now=now)
    button = Button(settings.DEBOUNCE_MS, settings.HOLD_MS, pressed_at_start=held, now=now)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    box.boot(now)
    while True:
        for _, event in poller.poll(POLL_MS):
            line = b""
            if event & select.POLLIN:
                try:
                    line = stdin.readline()
                except OSError:
                    line = b""
            if line:
                box.receive(line, ticks.now())
            else:
                time.sleep_ms(POLL_MS)  # the host hung up: don't spin on the closed end
        now = ticks.now()
        pressed = button.update(board.pressed(), now)
        if pressed:
            box.button(pressed, now)
        box.tick(now)


run()
