"""Each game's own dice through the scrambler (`DiceSpec`): a Kessel reveal's Impostor roll and a
Coruscant round's gold and silver roll pressed on the GPIO button (gpiozero's MockFactory) and on
the USB box (a pseudo-terminal pair), each filled in from the hand's committed seed and announced
as dice to read (the ``rolled`` LED and beep patterns), not as a classic shift or no shift; and
`scrambler simulate` for every game's dice, each die's faces at their chances."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest

from companion.cli import main
from companion.games import registry as games
from companion.scrambler.dice import SHIFT_DICE, spec_of
from companion.scrambler.hub import Scrambler, ScramblerSettings
from companion.scrambler.link import TableLink
from companion.scrambler.patterns import patterns_for
from companion.scrambler.seed import SeededRoller, verify
from companion.scrambler.simulate import expected_faces, simulate_dice
from companion.scrambler.timer import FakeClock
from companion.table.engine import HOST
from companion.table.registry import Registry
from test_serial_box import FAST, FakeBox

BUTTON, LED, BUZZER = 17, 27, 22
SEED = "5e" * 32
#: A box whose firmware knows the ``rolled`` patterns.
HELLO_1_1 = b"HELLO proto=1 box=sabacc-scrambler fw=1.1.0 mode=companion\r\n"


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def registry(tmp_path):
    reg = Registry(tmp_path, roller_factory=SeededRoller)  # every hand's rolls from a committed seed
    yield reg
    reg.close()


def seats(owner, names):
    for name in names:
        owner.submit({"type": "join", "name": name}, actor=None)
    for seat in owner.seat_ids():
        owner.submit({"type": "buy_in"}, actor=seat)
    return owner.seat_ids()


def kessel_at_an_impostor(registry):
    """A Kessel table whose first player has shown an Impostor: the dice are wanted."""
    owner, _ = registry.create({"rules": "kessel-plain"}, owner_token=True)
    seats(owner, ("Kay", "Lando", "Vel"))
    owner.submit({"type": "start_hand"}, actor=HOST)
    owner.submit({"type": "turn_up", "sand": "s4", "blood": "b6"}, actor=HOST)
    order = owner.view(host=True)[1]["hand"]["game"]["in_game"]
    for sid in order:  # everyone stands: the reveal at once (K11)
        owner.submit({"type": "stand"}, actor=sid)
    owner.submit({"type": "show_hand", "cards": ["s3", "bi"]}, actor=order[0])
    assert owner.view(host=True)[1]["hand"]["game"]["pending"]["dice"] is None
    return owner


def kessel_dice(owner):
    return owner.view(host=True)[1]["hand"]["game"]["pending"]["dice"]


def coruscant_at_the_roll(registry):
    """A Coruscant round dealt and waiting for the gold and silver dice."""
    owner, _ = registry.create({"rules": "coruscant"}, owner_token=True)
    seats(owner, ("Han", "Bria", "Tobias"))
    owner.submit({"type": "start_hand"}, actor=HOST)
    assert owner.view(host=True)[1]["hand"]["do"] == "roll"
    return owner


def coruscant_dice(owner):
    hand = owner.view(host=True)[1]["hand"]
    return hand["last_roll"]["dice"] if hand.get("last_roll") else None


def the_roll_is_the_seeds(owner, key, dice):
    """The roll is in the hand's record under the game's dice key, and the hand's seed (kept
    server side until the hand ends) gives exactly those dice."""
    record = owner.seeded.record()
    assert record["rolls"][-1] == {"index": len(record["rolls"]) - 1, "trigger": key, "dice": dice}
    seed = owner.seeded.to_json()["seed"]
    assert verify(seed, record["commitment"], record["rolls"]).ok


GAMES = {
    "kessel": (kessel_at_an_impostor, kessel_dice, "kessel-dice"),
    "coruscant": (coruscant_at_the_roll, coruscant_dice, "coruscant-target"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_press_on_the_gpio_button_rolls_the_games_dice_and_the_led_and_buzzer_say_rolled(
        factory, registry, game):
    setup, dice_of, key = GAMES[game]
    owner = setup(registry)
    clock = FakeClock(0.0)
    hub = Scrambler.from_settings({"gpio": {"button": BUTTON, "led": LED, "buzzer": BUZZER}},
                                  send=registry.scrambler_submit, gpio_options={"clock": clock}).start()
    link = TableLink(registry, hub, poll_s=0.05).start()
    led, buzzer = factory.pin(LED), factory.pin(BUZZER)
    try:
        assert wait_for(lambda: link.code == owner.code), "the link did not find the table"
        assert hub.gpio.led_player.wait_showing("idle", timeout=5)
        led.clear_states()
        buzzer.clear_states()
        pin = factory.pin(BUTTON)
        pin.drive_low()
        clock.advance(0.15)
        pin.drive_high()  # a press counts on release
        assert wait_for(lambda: dice_of(owner) is not None), "the press did not roll"
        dice = dice_of(owner)
        assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
        the_roll_is_the_seeds(owner, key, dice)
        assert wait_for(lambda: link.shown == 1), "the roll was not announced"
        assert hub.gpio.led_player.wait_showing("rolled", timeout=5)
        assert hub.gpio.led_player.wait_done(timeout=5)
        assert hub.gpio.beep_player.wait_done(timeout=5)
        # From the steady idle light: two blinks, one per die (not the three flashes of a
        # shift, nor the one dark pause of no shift); the buzzer: the press, then two chirps.
        assert [s.state for s in led.states] == [True, False, True, False, True]
        assert [s.state for s in buzzer.states][-4:] == [True, False, True, False]
    finally:
        link.close()
        hub.close()


def connect_box(box: FakeBox, hub: Scrambler, hello: bytes = HELLO_1_1) -> None:
    assert box.expect("HELLO") == "HELLO proto=1"
    box.write(hello)
    assert hub.box is not None and hub.box.wait_state("ready", timeout=5)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_press_on_the_usb_box_rolls_the_games_dice_and_the_box_is_told_rolled(fake_box, registry, game):
    setup, dice_of, key = GAMES[game]
    owner = setup(registry)
    box = fake_box()
    hub = Scrambler(registry.scrambler_submit, ScramblerSettings(serial=box.path),
                    box_options={"backoff": FAST}).start()
    link = TableLink(registry, hub, poll_s=0.05).start()
    try:
        connect_box(box, hub)
        assert wait_for(lambda: link.code == owner.code)
        box.write(b"PRESS\r\n")
        assert box.expect("LED pattern=rolled") and box.expect("BEEP") == "BEEP pattern=rolled"
        dice = dice_of(owner)
        assert dice is not None and len(dice) == 2
        the_roll_is_the_seeds(owner, key, dice)
    finally:
        link.close()
        hub.close()


@pytest.fixture
def fake_box():
    boxes = []

    def make():
        boxes.append(FakeBox())
        return boxes[-1]

    yield make
    for b in boxes:
        b.unplug()


def test_a_box_with_firmware_1_0_is_told_no_shift_for_dice_to_read(fake_box):
    box = fake_box()
    hub = Scrambler(lambda e: None, ScramblerSettings(serial=box.path), box_options={"backoff": FAST}).start()
    try:
        connect_box(box, hub, b"HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=companion\r\n")
        assert box.expect("LED") == "LED pattern=idle"  # the background, sent on connect
        hub.show({"trigger": "kessel-dice", "dice": [2, 5], "shift": False, "kind": None})
        assert box.expect("LED") == "LED pattern=noshift"  # 1.0.0 knows no "rolled": its calm glow
        assert box.expect("BEEP") == "BEEP pattern=noshift"
    finally:
        hub.close()


def test_each_games_dice_say_how_a_roll_is_announced():
    assert patterns_for({"trigger": "kessel-dice", "dice": [1, 6], "shift": False}) == ("rolled", "rolled")
    assert patterns_for({"trigger": "coruscant-target", "dice": [3, 2], "shift": False}) == ("rolled", "rolled")
    assert patterns_for({"trigger": "2d6-doubles", "dice": [3, 3], "shift": True}) == ("shift", "shift")
    assert patterns_for({"trigger": "2d6-doubles", "dice": [3, 4], "shift": False}) == ("noshift", "noshift")
    # Kessel rolls recorded before the games had dice of their own still read as before.
    assert patterns_for({"trigger": "2d6-doubles", "dice": [2, 5], "shift": False}) == ("noshift", "noshift")


def test_the_coruscant_dice_read_their_faces_in_the_games_words():
    spec = spec_of("coruscant-target")
    assert spec is not None and spec.read((3, 2)) == ("+5", "Triangle")
    assert spec.read((6, 4)) == ("−10", "Circle")
    with pytest.raises(ValueError):
        spec.read((7, 1))


#: Every dice any game declares, by key.
ALL_DICE = sorted(k for k, d in games.dice().items() if d.count)
ROLLS = 12_000


@pytest.mark.parametrize("key", ALL_DICE)
def test_simulate_every_games_dice_shows_each_face_at_its_chance(key):
    spec = games.dice()[key]
    out = simulate_dice(spec, ROLLS, roller=SeededRoller(SEED))
    assert out["rolls"] == ROLLS and len(out["faces"]) == spec.count
    for die, chances in zip(out["faces"], expected_faces(spec)):
        assert sum(die["counts"].values()) == ROLLS
        for word, p in chances.items():
            # 12,000 rolls: a face's share is within 0.02 of its chance (over 4.5 standard
            # deviations for any face, the gold die's blank being the widest; seeded: never flaky).
            assert abs(die["counts"][word] / ROLLS - float(p)) < 0.02, (key, die["die"], word)
    if spec.shifts:
        assert abs(out["observed_rate"] - out["expected_rate"]) < 0.02


def test_simulate_the_gold_die_shows_its_blank_twice_as_often_as_each_number(capsys):
    assert main(["scrambler", "simulate", "--game", "coruscant", "--rolls", "24000", "--seed", SEED,
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (target,) = out["dice"]
    gold, silver = target["faces"]
    assert gold["die"] == "gold die" and silver["die"] == "silver die"
    assert gold["expected"] == {"0": 1 / 3, "+5": 1 / 6, "−5": 1 / 6, "+10": 1 / 6, "−10": 1 / 6}
    for word, p in gold["expected"].items():
        assert abs(gold["counts"][word] / 24000 - p) < 0.015, word
    for word in ("Circle", "Triangle", "Square"):
        assert abs(silver["counts"][word] / 24000 - 1 / 3) < 0.015, word
    assert target["announce"] == ["rolled", "rolled"]
    assert out["commitment"]


def test_simulate_covers_every_games_dice_from_the_command_line(capsys):
    for name, game in games.games().items():
        if not any(d.count for d in game.dice):
            continue
        assert main(["scrambler", "simulate", "--game", name, "--rolls", "600", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert [d["dice"] for d in out["dice"]] == [d.key for d in game.dice if d.count]
        assert all(sum(f["counts"].values()) == 600 for d in out["dice"] for f in d["faces"])
    # Spike's roll is the classic shift trigger in the spike dice's symbols.
    assert main(["scrambler", "simulate", "--game", "spike", "--rolls", "600", "--json"]) == 0
    spike = json.loads(capsys.readouterr().out)["dice"][0]
    assert set(spike["faces"][0]["counts"]) == {"Spike", "Flask", "Crown", "Compass", "Eye", "Sun"}
    assert spike["expected_rate_fraction"] == "1/6"


def test_a_kessel_impostor_roll_is_judged_by_no_shift_trigger():
    spec = spec_of("kessel-dice")
    assert spec is not None and not spec.shifts and spec.read((1, 6)) == ("1", "6")
    assert SHIFT_DICE[next(iter(SHIFT_DICE))].shifts
    assert expected_faces(spec) == [{str(n): Fraction(1, 6) for n in range(1, 7)}] * 2


def test_verify_on_the_command_line_checks_a_games_own_dice(capsys):
    r = SeededRoller(SEED)
    published = r.commitment
    impostor, target = r.dice(spec_of("kessel-dice")), r.dice(spec_of("coruscant-target"))
    rolls = [f"kessel-dice:{impostor[0]},{impostor[1]}", f"coruscant-target:{target[0]},{target[1]}"]
    args = ["verify", "--seed", SEED, "--commitment", published, "--json"]
    assert main(args + [a for roll in rolls for a in ("--roll", roll)]) == 0
    assert [x["trigger"] for x in json.loads(capsys.readouterr().out)["rolls"]] == ["kessel-dice", "coruscant-target"]
    wrong = f"kessel-dice:{impostor[0] % 6 + 1},{impostor[1]}"
    assert main(args + ["--roll", wrong]) == 1
    assert main(args + ["--roll", "cointoss:1"]) == 2  # no game has such dice


def test_a_restart_between_two_impostor_rolls_goes_on_with_the_seeds_next_roll(tmp_path):
    reg = Registry(tmp_path, roller_factory=SeededRoller)
    owner, _ = reg.create({"rules": "kessel-plain"}, owner_token=True)
    code = owner.code
    seats(owner, ("Kay", "Lando", "Vel"))
    owner.submit({"type": "start_hand"}, actor=HOST)
    owner.submit({"type": "turn_up", "sand": "s4", "blood": "b6"}, actor=HOST)
    first = owner.view(host=True)[1]["hand"]["game"]["in_game"][0]
    for sid in owner.view(host=True)[1]["hand"]["game"]["in_game"]:
        owner.submit({"type": "stand"}, actor=sid)
    owner.submit({"type": "show_hand", "cards": ["bi", "si"]}, actor=first)  # two Impostors: two rolls
    owner.submit({"type": "roll"}, actor=first)
    dice = kessel_dice(owner)
    owner.submit({"type": "choose_value", "value": dice[0]}, actor=first)
    reg.close()

    again = Registry(tmp_path, roller_factory=SeededRoller)
    try:
        owner = again.get(code)
        owner.submit({"type": "roll"}, actor=first)
        record = owner.seeded.record()
        assert [(r["index"], r["trigger"]) for r in record["rolls"]] == [(0, "kessel-dice"), (1, "kessel-dice")]
        assert record["rolls"][1]["dice"] == kessel_dice(owner)
        assert verify(owner.seeded.to_json()["seed"], record["commitment"], record["rolls"]).ok
    finally:
        again.close()
