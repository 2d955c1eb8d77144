"""`POST /api/v1/settle`: the payout calculator (SETTLE-API.md)."""

from flask import Blueprint

bp = Blueprint("settle_api", __name__)
