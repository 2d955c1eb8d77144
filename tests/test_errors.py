"""Every HTTP error under /api/ is a JSON body with `error` and `field`."""


def test_unknown_api_path_is_a_json_404(client):
    r = client.get("/api/v1/no-such-thing")
    assert r.status_code == 404
    assert r.is_json and r.json["field"] is None and r.json["error"]


def test_wrong_method_is_a_json_405_that_says_which_methods_are_allowed(client):
    r = client.delete("/api/v1/settle")
    assert r.status_code == 405
    assert r.is_json and r.json["error"]
    assert "POST" in r.headers["Allow"]


def test_pages_outside_the_api_keep_html_errors(client):
    r = client.get("/no-such-page")
    assert r.status_code == 404
    assert not r.is_json


def test_a_number_with_thousands_of_digits_is_refused_in_words(client):
    r = client.post("/api/v1/settle", data='{"sabacc_pot": ' + "9" * 5000 + "}",
                    content_type="application/json")
    assert r.status_code == 400
    assert r.json == {"error": "the JSON body holds a number with too many digits", "field": "body"}
