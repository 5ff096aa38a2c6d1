"""schemathesis against the JSON API's own OpenAPI document (/api/openapi.json), on the ASGI app
over the shared test event: for every operation, requests generated from the schema (valid ones
and deliberately invalid ones) must never answer 5xx, must answer only documented statuses, and
each answer's body must fit the documented schema. Bounded: a few examples per operation and
mode, derandomized, so it takes well under a minute and a failure is reproducible.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from tests.web.conftest import PASSWORDS, Site

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = 25  # per operation and mode; 11 operations × 2 modes × 25 ≈ 500 requests
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def _run(operation: Any, mode: GenerationMode, headers: dict[str, str]) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def one(case: Any) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS)

    one()


def test_the_api_answers_as_its_schema_says(site: Site) -> None:
    app = site.client.app
    token = site.client.post("/api/token", json={"login": "referee", "password": PASSWORDS["referee"]}).json()["token"]
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/api/events/{event_id}", "/api/token",
                                             "/api/events/{event_id}/rounds/{division}/{number}/results"}
    failures = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _run(operation, mode, {"Authorization": f"Bearer {token}"})
            except Unsatisfiable:  # an operation that takes nothing has no invalid input
                assert mode is GenerationMode.NEGATIVE and operation.path == "/api/events"
            except (Exception, BaseExceptionGroup) as exc:  # names the case, the check, a curl to replay
                found = exc.exceptions if isinstance(exc, BaseExceptionGroup) else (exc,)
                failures += [f"{operation.method.upper()} {operation.path} ({mode.value}): {e}"[:1500] for e in found]
    assert not failures, "\n\n".join(failures)
