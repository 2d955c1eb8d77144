"""The pins: the only firmware module that imports `machine`.

`Board` reads the button and drives the LED and the piezo buzzer; `modes.Box` only sees
its `led(level)` and `tone(freq)`, and `main.py` reads `pressed()`::

    board = Board()          # pins from settings.py
    board.led(1); board.tone(1760)
"""

from machine import PWM, Pin

import settings


class Board:
    """The button (to ground, internal pull-up), the LED and the PWM buzzer."""

    def __init__(self, button=settings.BUTTON_PIN, led=settings.LED_PIN,
                 buzzer=settings.BUZZER_PIN, duty=settings.BUZZER_DUTY):
        self._button = Pin(button, Pin.IN, Pin.PULL_UP)
        self._led = Pin(led, Pin.OUT, value=0)
        self._buzzer = PWM(Pin(buzzer))
        self._buzzer.duty_u16(0)
        self._duty = duty

    def pressed(self):
        """Whether the button is down right now (raw: `buttons.Button` debounces it)."""
        return self._button.value() == 0  # the pull-up holds it high; a press grounds it

    def led(self, level):
        """Turn the LED on (1) or off (0)."""
        self._led.value(level)

    def tone(self, freq):
        """Sound the piezo at `freq` Hz, or silence it with 0."""
        if freq:
            self._buzzer.freq(freq)
            self._buzzer.duty_u16(self._duty)
        else:
            self._buzzer.duty_u16(0)
