"""The scrambler wired as `serve` wires it: a GPIO press rolls on the bound table through the
registry, and every roll of that table — a phone's on-screen roll included — lights the LED."""

from __future__ import annotations

import argparse
import time

import pytest

from companion.scrambler.hub import Scrambler
from companion.scrambler.link import TableLink
from companion.scrambler.timer import FakeClock
from companion.serve import scrambler_settings
from companion.table.engine import HOST
from companion.table.registry import Registry

BUTTON, LED, BUZZER = 17, 27, 22


class Doubles:
    """Loaded dice: every 2d6 roll is a double, so every roll shifts."""

    def dice(self, trigger):
        return (5, 5)


@pytest.fixture
def registry(tmp_path):
    reg = Registry(tmp_path, roller_factory=Doubles)
    yield reg
    reg.close()


def table_waiting_for_a_roll(registry):
    owner, _ = registry.create({"rules": "classic"}, owner_token=True)  # the owner's tables
    for name in ("Han", "Leia"):
        owner.submit({"type": "join", "name": name}, actor=None)
    for seat in owner.seat_ids():
        owner.submit({"type": "buy_in", "amount": 50}, actor=seat)
    owner.submit({"type": "start_hand"}, actor=HOST)
    owner.submit({"type": "check"}, actor=owner.view(host=True)[1]["hand"]["turn"])
    assert owner.view(host=True)[1]["hand"]["do"] == "roll"
    return owner


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False



def test_serve_options_become_the_hubs_settings():
    args = argparse.Namespace(gpio="auto", pins=(5, 6, 13), tonal=True, serial="off", long_press="roll")
    assert scrambler_settings(args) == {
        "gpio": {"button": 5, "led": 6, "buzzer": 13, "tonal": True},
        "serial": None,
        "long_press": "roll",
    }
    off = argparse.Namespace(gpio="off", pins=(17, 27, 22), tonal=False, serial="/dev/ttyACM0",
                             long_press="timer")
    assert scrambler_settings(off)["gpio"] is None
    assert scrambler_settings(off)["serial"] == "/dev/ttyACM0"


def test_a_button_press_rolls_on_the_bound_table_and_the_led_shows_the_shift(factory, registry):
    owner = table_waiting_for_a_roll(registry)
    clock = FakeClock(0.0)
    hub = Scrambler.from_settings(
        {"gpio": {"button": BUTTON, "led": LED, "buzzer": BUZZER}},
        send=registry.scrambler_submit, gpio_options={"clock": clock},
    ).start()
    link = TableLink(registry, hub, poll_s=0.05).start()
    try:
        assert wait_for(lambda: link.code == owner.code), "the link did not find the table"
        version = owner.version
        pin = factory.pin(BUTTON)
        pin.drive_low()
        clock.advance(0.15)
        pin.drive_high()  # a press counts on release
        assert wait_for(lambda: owner.version == version + 1), "the press did not roll"
        hand = owner.view(host=True)[1]["hand"]
        assert hand["do"] == "draw"  # rolled, shifted, and the turn moved on to the draw
        assert wait_for(lambda: link.shown == 1), "the roll was not shown on the devices"
        led = factory.pin(LED)
        assert wait_for(lambda: len(led.states) > 3), "the LED did not flash for the shift"
    finally:
        link.close()
        hub.close()


def test_a_roll_from_a_phone_is_shown_on_the_scrambler_too(registry):
    owner = table_waiting_for_a_roll(registry)
    shown = []

    class Devices:
        """Stands in for the hub's outputs: records what would light and beep."""

        def show(self, roll):
            shown.append(roll)

        def configure_timer(self, mean, minimum, maximum):
            shown.append(("timer", mean, minimum, maximum))

    link = TableLink(registry, Devices(), poll_s=0.05).start()
    try:
        assert wait_for(lambda: link.code == owner.code)
        turn = owner.view(host=True)[1]["hand"]["turn"]
        owner.submit({"type": "roll"}, actor=turn)  # the on-screen scrambler on that phone
        assert wait_for(lambda: any(isinstance(s, dict) for s in shown))
        roll = next(s for s in shown if isinstance(s, dict))
        assert roll["dice"] == [5, 5] and roll["shift"] is True and roll["kind"] == "core"
        assert ("timer", 120.0, 20.0, 600.0) in shown  # the classic preset's timer settings
    finally:
        link.close()


def test_the_link_follows_the_scrambler_when_the_host_binds_another_table(registry):
    first = table_waiting_for_a_roll(registry)
    second = table_waiting_for_a_roll(registry)

    class Devices:
        def show(self, roll):
            pass

        def configure_timer(self, *a):
            pass

    link = TableLink(registry, Devices(), poll_s=0.05).start()
    try:
        # The owner's first table took the scrambler; a second one does not move it.
        assert registry.scrambler_code == first.code
        registry.bind_scrambler(second.code)
        assert wait_for(lambda: link.code == second.code)
        registry.bind_scrambler(first.code)
        assert wait_for(lambda: link.code == first.code)
    finally:
        link.close()
