"""The scrambler on GPIO pins, with gpiozero's MockFactory: a press rolls, bounce is filtered,
a long press arms the timer, a result lights and beeps its pattern, no GPIO means None."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device
from hypothesis import given
from hypothesis import strategies as st

from companion.scrambler import gpio as gpio_module
from companion.scrambler.dice import judge
from companion.scrambler.gpio import Debouncer, GpioPins, GpioScrambler, open_gpio
from companion.scrambler.hub import Scrambler, ScramblerSettings
from companion.scrambler.timer import FakeClock
from companion.rules.rulesets import ShiftKind, Trigger

BUTTON, LED, BUZZER = 17, 27, 22
ROLL = {"type": "roll"}


@pytest.fixture
def clock():
    return FakeClock(0.0)


def make(factory, clock=None, **pins):
    sent, holds = [], []
    g = GpioScrambler(GpioPins(BUTTON, LED, BUZZER, **pins), send=sent.append,
                      on_hold=lambda: holds.append(1), pin_factory=factory,
                      **({"clock": clock} if clock else {}))
    return g, sent, holds


def press(pin, clock, seconds=0.15):
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()


def test_a_press_of_the_button_sends_a_roll(factory, clock):
    g, sent, _ = make(factory, clock)
    try:
        press(factory.pin(BUTTON), clock)
        assert sent == [ROLL]
        clock.advance(1)
        press(factory.pin(BUTTON), clock)
        assert sent == [ROLL, ROLL]
    finally:
        g.close()


def test_contact_bounce_on_press_and_release_rolls_once(factory, clock):
    g, sent, _ = make(factory, clock)
    pin = factory.pin(BUTTON)
    try:
        for _ in range(4):  # the contact chatters for 4 ms as it closes
            pin.drive_low()
            clock.advance(0.0005)
            pin.drive_high()
            clock.advance(0.0005)
        pin.drive_low()
        clock.advance(0.2)
        for _ in range(3):  # and again as it opens
            pin.drive_high()
            clock.advance(0.001)
            pin.drive_low()
            clock.advance(0.001)
        pin.drive_high()
        assert sent == [ROLL]
    finally:
        g.close()


def test_presses_further_apart_than_the_debounce_time_all_count(factory, clock):
    g, sent, _ = make(factory, clock, debounce=0.03)
    pin = factory.pin(BUTTON)
    try:
        for _ in range(5):
            press(pin, clock, 0.05)
            clock.advance(0.05)
        assert sent == [ROLL] * 5
    finally:
        g.close()


@st.composite
def bouncy_presses(draw):
    """Edge times of presses, each with bounce shorter than the debounce time at both ends."""
    debounce = 0.03
    edges, t = [], 0.0
    presses = draw(st.integers(1, 5))
    for _ in range(presses):
        t += draw(st.floats(debounce, 1.0))  # rest before the press
        for level in (False, True):  # the press edge, then the release edge
            chatter = draw(st.lists(st.floats(0.0001, 0.004), max_size=6))
            bounce_t = t
            edges.append((bounce_t, level))
            for i, gap in enumerate(chatter):
                bounce_t += gap
                if bounce_t - t >= debounce:
                    break
                edges.append((bounce_t, level if i % 2 else not level))
            if len(edges) and edges[-1][1] != level:
                edges.append((bounce_t, level))  # settles at the new level inside the window
            t += draw(st.floats(debounce + 0.005, 0.5))  # held (or released) steadily
    return debounce, presses, edges


@given(bouncy_presses())
def test_any_bounce_within_the_debounce_time_gives_one_roll_per_press(case):
    debounce, presses, edges = case
    now = [0.0]
    d = Debouncer(debounce, clock=lambda: now[0])
    rolls = 0
    for t, pressed in edges:
        now[0] = t
        if pressed is False:  # pin low: pressed (pull-up wiring)
            d.press()
        elif d.release():
            rolls += 1
    assert rolls == presses


def test_a_long_press_runs_the_hold_action_and_does_not_roll(factory):
    held = threading.Event()
    sent = []
    g = GpioScrambler(GpioPins(BUTTON, LED, BUZZER, hold_time=0.05), send=sent.append,
                      on_hold=held.set, pin_factory=factory)
    try:
        pin = factory.pin(BUTTON)
        pin.drive_low()
        assert held.wait(timeout=5)  # gpiozero's hold thread calls us after 0.05 s
        pin.drive_high()
        assert sent == []
    finally:
        g.close()


def assert_states(pin, expected):
    """All recorded states (value, seconds since the previous change) and no more."""
    assert len(pin.states) == len(expected), pin.states
    try:
        pin.assert_states_and_times(expected)
    except AssertionError:
        raise AssertionError(f"{pin.states} is not {expected}") from None


#: An edge set this late (half of assert_states_and_times' 0.05 s tolerance) means the
#: machine was busy: the deltas either side of it may be off by more than the tolerance.
BUSY_S = 0.025


def wait_until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def assert_plays(show, checks, tries=4):
    """`show()` starts patterns; each check (player, pattern, pin, expected states) then holds.

    The mock stamps each pin change with the real clock, so a loaded CI machine can wake a
    player late. A try is repeated only when the player itself measured one of its edges
    later than BUSY_S; a wrong pattern played on time fails at once.
    """
    for attempt in range(tries):
        for player, _, pin, _ in checks:  # start from the background, settled on the pin
            assert player.wait_showing(player.background, timeout=5)
            level = player.patterns[player.background].steps[0][0]
            wait_until(lambda: bool(pin.state) == bool(level))
            pin.clear_states()
        show()
        for player, _, pin, expected in checks:
            assert player.wait_done(timeout=5)
            # The last change may be the background's, set just after the pattern is done.
            wait_until(lambda: len(pin.states) >= len(expected), timeout=1)
        try:
            for _, _, pin, expected in checks:
                assert_states(pin, expected)
            return
        except AssertionError:
            late = max(player.lateness.get(name, 0.0) for player, name, _, _ in checks)
            if late < BUSY_S or attempt == tries - 1:
                raise


def test_a_shift_flashes_the_led_three_times_and_beeps_three_times(factory):
    g, _, _ = make(factory)
    led, buzzer = factory.pin(LED), factory.pin(BUZZER)
    try:
        assert_plays(lambda: g.show_pattern("shift", "shift"), [
            (g.led_player, "shift", led, [(0, True), (0.1, False), (0.1, True), (0.1, False),
                                          (0.1, True), (0.1, False), (0.1, True)]),  # then idle: on
            (g.beep_player, "shift", buzzer, [(0, False), (0, True), (0.12, False), (0.08, True),
                                              (0.12, False), (0.08, True), (0.12, False)]),
        ])
    finally:
        g.close()


def test_no_shift_darkens_the_led_once_and_beeps_once(factory):
    g, _, _ = make(factory)
    led, buzzer = factory.pin(LED), factory.pin(BUZZER)
    try:
        assert_plays(lambda: g.show_pattern("noshift", "noshift"), [
            (g.led_player, "noshift", led, [(0, True), (0, False), (0.5, True)]),  # back to idle
            (g.beep_player, "noshift", buzzer, [(0, False), (0, True), (0.08, False)]),
        ])
    finally:
        g.close()


def test_a_passive_piezo_plays_the_shift_tune(factory):
    g, _, _ = make(factory, tonal=True)
    pin = factory.pin(BUZZER)
    tones = []
    original = pin._set_frequency

    def record(value):
        tones.append(value)
        original(value)

    pin._set_frequency = record
    try:
        def play():
            tones.clear()
            g.show_pattern(beep="shift")

        assert_plays(play, [(g.beep_player, "shift", pin, [(0, 0.0), (0, 0.5), (0.12, 0.0), (0.06, 0.5),
                                                            (0.12, 0.0), (0.06, 0.5), (0.25, 0.0)])])
        assert [round(f) for f in tones if f] == [440, 660, 880]
    finally:
        g.close()


def test_no_gpio_on_this_machine_is_said_once_and_gives_none(monkeypatch, caplog, tmp_path):
    monkeypatch.setenv("SABACC_PI_MODEL_FILE", str(tmp_path / "no-model"))  # even on a Pi
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-factory")
    monkeypatch.setattr(Device, "pin_factory", None)
    gpio_module._said_no_gpio.clear()
    with caplog.at_level(logging.WARNING, logger="companion.scrambler.gpio"):
        assert open_gpio(GpioPins(), send=print) is None
        assert open_gpio(GpioPins(), send=print) is None
    said = [r for r in caplog.records if "on-screen scrambler" in r.getMessage()]
    assert len(said) == 1 and "no GPIO" in said[0].getMessage()


def test_a_raspberry_pi_without_lgpio_says_in_one_line_why_the_button_is_unused_and_how_to_get_it(
        monkeypatch, caplog, tmp_path):
    # Plain Debian on a Pi 5: the model file names the Pi, Python has no lgpio, gpiozero finds
    # no pin factory. The companion still starts (None: the on-screen scrambler).
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    monkeypatch.setenv("SABACC_PI_MODEL_FILE", str(model))
    monkeypatch.setitem(sys.modules, "lgpio", None)  # find_spec and import both fail
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-factory")
    monkeypatch.setattr(Device, "pin_factory", None)
    gpio_module._said_no_gpio.clear()
    with caplog.at_level(logging.WARNING, logger="companion.scrambler.gpio"):
        assert open_gpio(GpioPins(), send=print) is None
        assert open_gpio(GpioPins(), send=print) is None
    (said,) = [r.getMessage() for r in caplog.records]
    assert "\n" not in said
    assert "Raspberry Pi 5 Model B Rev 1.0" in said and "lgpio" in said
    assert "sudo apt install python3-lgpio" in said and "hardware/pi/INSTALL.md" in said
    assert said.endswith("the table uses the on-screen scrambler")
    # The section the line points at exists.
    install = (Path(__file__).resolve().parents[1] / "hardware/pi/INSTALL.md").read_text()
    assert "Plain Debian" in install


def test_a_laptop_with_no_pins_says_so_once_without_loading_gpiozero(tmp_path):
    # No pin factory named, no Pi, no GPIO device file: the on-screen scrambler, said in the
    # same words as before, and gpiozero (2.6 MB, some 50 ms) is never imported.
    env = {k: v for k, v in os.environ.items() if k not in gpio_module.PIN_FACTORY_VARIABLES}
    env["SABACC_PI_MODEL_FILE"] = str(tmp_path / "no-model")
    code = (
        "import logging, sys\n"
        "logging.basicConfig(level=logging.WARNING, format='%(message)s')\n"
        "import companion.scrambler.gpio as g\n"
        f"g.GPIO_DEVICES = ({str(tmp_path / 'gpiochip*')!r},)\n"
        "print(g.open_gpio(g.GpioPins(), send=print), g.open_gpio(g.GpioPins(), send=print))\n"
        "print('gpiozero' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "None", "False"]
    said = [line for line in done.stderr.splitlines() if "on-screen scrambler" in line]
    assert said == [gpio_module.NO_PINS_WORDS + "; the table uses the on-screen scrambler"]


def test_a_device_file_a_board_or_a_named_pin_factory_lets_gpiozero_decide(monkeypatch, tmp_path):
    for name in gpio_module.PIN_FACTORY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SABACC_PI_MODEL_FILE", str(tmp_path / "no-model"))
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(gpio_module, "GPIO_DEVICES", (str(tmp_path / "gpiochip*"),))
    assert gpio_module.pins_may_exist() is False
    (tmp_path / "gpiochip0").touch()  # a board lgpio could open
    assert gpio_module.pins_may_exist() is True
    (tmp_path / "gpiochip0").unlink()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert gpio_module.pins_may_exist() is True
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    (tmp_path / "model").write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    monkeypatch.setenv("SABACC_PI_MODEL_FILE", str(tmp_path / "model"))
    assert gpio_module.pins_may_exist() is True


def test_a_machine_that_is_no_raspberry_pi_has_no_model(tmp_path):
    other = tmp_path / "model"
    other.write_bytes(b"Radxa ROCK 5B\0")
    assert gpio_module.raspberry_pi_model(str(other)) is None
    other.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    assert gpio_module.raspberry_pi_model(str(other)) == "Raspberry Pi Zero 2 W Rev 1.0"


def test_gpiozero_pin_factory_mock_runs_the_scrambler_on_a_laptop(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    g = open_gpio(GpioPins(debounce=0), send=print)
    try:
        assert g is not None and g.button is not None
    finally:
        g.close()
        Device.pin_factory.reset()
        Device.pin_factory.close()


def test_pins_come_from_settings_by_bcm_number():
    assert GpioPins.from_settings({"button": 5, "led": 6, "buzzer": None, "tonal": True}) == \
        GpioPins(button=5, led=6, buzzer=None, tonal=True)
    with pytest.raises(ValueError, match="gpio.led"):
        GpioPins.from_settings({"led": 40})


# --- the hub with GPIO ---------------------------------------------------------------


def hub_with_gpio(factory, send, **settings):
    s = ScramblerSettings(gpio=GpioPins(BUTTON, LED, BUZZER, hold_time=0.05, debounce=0),
                          **settings)
    armed = []
    hub = Scrambler(send, s, gpio_options={"pin_factory": factory},
                    timer_options={"threaded": False, "clock": FakeClock()},
                    on_timer=armed.append)
    return hub.start(), armed


def test_hub_a_press_reaches_the_tables_owner_as_a_roll(factory):
    got = threading.Event()
    entries = []
    hub, _ = hub_with_gpio(factory, lambda e: (entries.append(e), got.set()))
    try:
        pin = factory.pin(BUTTON)
        pin.drive_low()
        pin.drive_high()
        assert got.wait(timeout=5) and entries == [ROLL]
        assert not hub.on_screen
    finally:
        hub.close()


def test_hub_a_long_press_arms_and_disarms_the_timer_and_the_led_shows_it(factory):
    changed = threading.Semaphore(0)
    hub, armed = hub_with_gpio(factory, lambda e: None)
    hub.on_timer = lambda a: (armed.append(a), changed.release())
    pin = factory.pin(BUTTON)
    try:
        pin.drive_low()
        assert changed.acquire(timeout=5)
        pin.drive_high()
        assert hub.timer.armed and armed == [True]
        assert hub.gpio.led_player.wait_showing("armed", timeout=5)
        pin.drive_low()
        assert changed.acquire(timeout=5)
        pin.drive_high()
        assert not hub.timer.armed and armed == [True, False]
        assert hub.gpio.led_player.wait_showing("idle", timeout=5)
    finally:
        hub.close()


def test_hub_shows_a_shift_roll_with_the_shift_patterns(factory):
    hub, _ = hub_with_gpio(factory, lambda e: None)
    led = factory.pin(LED)
    try:
        assert hub.gpio.led_player.wait_showing("idle", timeout=5)
        led.clear_states()
        hub.show(judge(Trigger.TWO_D6_DOUBLES, (4, 4), ShiftKind.CORE))
        assert hub.gpio.led_player.wait_done(timeout=5)
        assert [s.state for s in led.states] == [True, False, True, False, True, False, True]
        led.clear_states()
        hub.show({"trigger": "2d6-doubles", "dice": [4, 5], "shift": False, "kind": None})
        assert hub.gpio.led_player.wait_done(timeout=5)
        assert [s.state for s in led.states] == [True, False, True]
    finally:
        hub.close()


def test_hub_a_refused_roll_sounds_the_error_beep(factory):
    refused = threading.Event()

    def send(entry):
        refused.set()
        raise RuntimeError("409 not now: no hand is in play")

    hub, _ = hub_with_gpio(factory, send)
    buzzer = factory.pin(BUZZER)
    try:
        buzzer.clear_states()
        pin = factory.pin(BUTTON)
        pin.drive_low()
        pin.drive_high()
        assert refused.wait(timeout=5)
        assert hub.gpio.beep_player.wait_showing("error", timeout=5)
        assert hub.gpio.beep_player.wait_done(timeout=5)
        # The beep starts when the hub's worker has heard the refusal (a queue, not the
        # pattern: not timed here), and lasts 0.4 s, later only by as much as the player
        # itself measured it woke late.
        assert [s.state for s in buzzer.states] == [False, True, False]
        late = hub.gpio.beep_player.lateness["error"]
        assert 0.39 <= buzzer.states[2].timestamp <= 0.41 + late, (buzzer.states, late)
        assert hub.refused == 1
    finally:
        hub.close()


def test_the_documented_example_holds(factory):
    import doctest

    try:
        result = doctest.testmod(gpio_module)  # it installs its own MockFactory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = factory
    assert result.attempted > 0 and result.failed == 0


def test_hub_a_refused_timer_roll_is_silent_but_a_refused_press_beeps(factory):
    hub, _ = hub_with_gpio(factory, lambda e: (_ for _ in ()).throw(RuntimeError("409 not now")))
    beeps, beeped = [], threading.Event()
    hub.show_pattern = lambda led=None, beep=None: (beeps.append(beep), beeped.set())
    try:
        clock = hub.timer._clock
        hub.timer.start()
        clock.advance(600)
        assert hub.timer.tick()  # the timer's roll, refused between hands
        pin = factory.pin(BUTTON)
        pin.drive_low()
        pin.drive_high()  # then a press, refused too; the worker takes them in order
        assert beeped.wait(timeout=5)
        assert beeps == ["error"] and hub.refused == 2
    finally:
        hub.close()


def test_hub_settings_from_json_and_their_errors_name_the_setting():
    s = ScramblerSettings.from_settings({"gpio": {"button": 5, "led": None}, "serial": "auto",
                                         "long_press": "roll",
                                         "timer": {"mean": 60, "min": 10, "max": 300}})
    assert s.gpio == GpioPins(button=5, led=None) and s.serial == "auto"
    assert s.long_press == "roll" and s.timer.mean == 60
    for bad, word in [({"long_press": "dance"}, "long_press"), ({"gpio": 17}, "gpio"),
                      ({"serial": 3}, "serial"), ({"timer": {"mean": 5, "min": 10}}, "timer")]:
        with pytest.raises(ValueError, match=word):
            ScramblerSettings.from_settings(bad)


def test_hub_on_a_machine_without_gpio_runs_on_screen(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-factory")
    monkeypatch.setattr(Device, "pin_factory", None)
    sent = []
    hub = Scrambler(sent.append, ScramblerSettings(gpio=GpioPins())).start()
    try:
        assert hub.gpio is None and hub.on_screen
        assert hub.status()["on_screen"] is True and hub.status()["gpio"] is False
        hub.show({"shift": True})  # nothing attached: showing is harmless
    finally:
        hub.close()


def test_hub_long_press_can_be_chosen_to_roll(factory):
    got = threading.Event()
    entries = []
    hub, _ = hub_with_gpio(factory, lambda e: (entries.append(e), got.set()), long_press="roll")
    try:
        pin = factory.pin(BUTTON)
        pin.drive_low()
        assert got.wait(timeout=5)
        pin.drive_high()
        assert entries == [ROLL] and not hub.timer.armed
    finally:
        hub.close()
