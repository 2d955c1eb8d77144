"""The shift scrambler: dice and triggers, verifiable seeded rolls, the random timer, and the
hardware that rolls them (GPIO button/LED/buzzer on the Pi, the USB box), tied together by
`companion.scrambler.hub.Scrambler`."""
