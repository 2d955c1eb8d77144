"""The address phones reach this server at: what QR codes and join links hold."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, request


def _loopback(hostname: str | None) -> bool:
    if not hostname or hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False  # a name such as sabacc.local


def phone_base_url() -> str:
    """The base address phones reach this server at, ending in "/".

    Normally the address this page was asked at. But a browser on the server's own machine
    (the table display on the Pi's HDMI screen, a host on the laptop that serves) asks at
    localhost, which no phone can reach: then the address `serve` printed (`PHONE_URL`).
    """
    phone_url = current_app.config.get("PHONE_URL")
    if phone_url and _loopback(urlsplit(request.host_url).hostname):
        return phone_url if phone_url.endswith("/") else phone_url + "/"
    return request.host_url
