"""The client factory, the real-HTTP path, record/replay and friendly errors."""

from __future__ import annotations

import time
from dataclasses import replace

import openai
import pytest

from ragcourse import prompts
from ragcourse.config import Settings
from ragcourse.errors import CourseError
from ragcourse.llm import banner, chat_model, friendly_errors, get_client
from ragcourse.offline import MODEL_NAME, serve
from ragcourse.results import Passage

PASSAGES = [Passage("w:0", "w", "docs/warranty.md", "Tarn Audio warranty terms",
                    "Every Tarn Audio amplifier carries a 5-year warranty. Speakers are covered for 2 years.")]
QUESTION = "How long is the warranty on Tarn Audio amplifiers?"


@pytest.fixture()
def server():
    with serve(api_key="sk-test") as running:
        yield running


def remote(base_url: str, **changes) -> Settings:
    """Settings of a real OpenAI-compatible provider at ``base_url``."""
    return replace(Settings(provider="compatible", chat_model=MODEL_NAME, base_url=base_url, api_key="sk-test",
                            max_retries=0, timeout=10), **changes)


def answer(settings: Settings) -> str:
    client = get_client(settings)
    with friendly_errors(settings):
        response = client.chat.completions.create(model=chat_model(settings),
                                                  messages=prompts.answer_messages(QUESTION, PASSAGES, "Tarn"))
    return response.choices[0].message.content


def test_offline_client_is_a_real_openai_client():
    client = get_client(Settings())
    assert isinstance(client, openai.OpenAI)
    assert chat_model(Settings()) == MODEL_NAME
    assert [m.id for m in client.models.list()] == [MODEL_NAME]
    assert "5-year warranty [warranty.md]" in answer(Settings())


def test_banner_names_the_model_and_how_to_switch():
    assert "offline model" in banner(Settings()) and "RAGCOURSE_PROVIDER=" in banner(Settings())
    real = Settings(provider="dashscope", chat_model="qwen-max-latest", api_key="k")
    assert banner(real) == "Answers come from qwen-max-latest at dashscope."


def test_azure_gets_the_azure_client():
    settings = Settings(provider="azure", chat_model="gpt4o", base_url="https://x.openai.azure.com", api_key="k",
                        api_version="2024-10-21")
    assert isinstance(get_client(settings), openai.AzureOpenAI)


def test_same_calls_work_over_real_http_with_base_url_and_key(server):
    assert answer(remote(server.base_url)) == answer(Settings())
    with pytest.raises(CourseError, match="rejected the API key: set RAGCOURSE_API_KEY"):
        answer(remote(server.base_url, api_key="wrong"))


def test_unknown_model_gives_one_line_saying_what_to_set(server):
    with pytest.raises(CourseError, match="does not know the model 'gpt-9'.*RAGCOURSE_CHAT_MODEL"):
        answer(remote(server.base_url, chat_model="gpt-9"))


def test_unreachable_server_fails_fast_with_one_line():
    started = time.perf_counter()
    with pytest.raises(CourseError, match=r"Cannot reach compatible at http://127.0.0.1:9.*RAGCOURSE_BASE_URL") as info:
        answer(remote("http://127.0.0.1:9/v1"))
    assert "\n" not in str(info.value)
    assert time.perf_counter() - started < 30  # not a timing benchmark: only "does not hang"


def test_record_then_replay_round_trip(server, tmp_path):
    cassette = tmp_path / "run.jsonl"
    recorded = answer(remote(server.base_url, record_path=cassette))
    assert cassette.read_text().count("\n") == 1
    replay = Settings(provider="replay", chat_model="recorded", base_url="http://replay.ragcourse/v1",
                      replay_path=cassette)
    assert chat_model(replay) == MODEL_NAME
    assert answer(replay) == recorded
    assert banner(replay).startswith(f"Answers are replayed from {cassette}")
    client = get_client(replay)
    with pytest.raises(CourseError, match=r'no recorded response for POST chat/completions .*"Was anything else'):
        client.chat.completions.create(model=MODEL_NAME, messages=[{"role": "user", "content": "Was anything else "
                                                                                                  "said?"}])


def test_missing_cassette_says_how_to_record(tmp_path):
    with pytest.raises(CourseError, match="record one with RAGCOURSE_RECORD"):
        get_client(Settings(provider="replay", replay_path=tmp_path / "none.jsonl"))
