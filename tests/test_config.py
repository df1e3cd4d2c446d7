"""Settings: offline by default, clear one-line errors for everything a user can get wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcourse.config import load_settings
from ragcourse.errors import CourseError


def settings(tmp_path: Path, **env: str):
    return load_settings({"RAGCOURSE_CACHE": str(tmp_path / "cache"), "RAGCOURSE_ENV_FILE": "", **env})


def test_offline_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    s = settings(tmp_path)
    assert s.provider == "offline" and s.offline and s.embeddings == "local"
    assert s.cache_dir.is_dir()


def test_provider_presets(tmp_path: Path) -> None:
    s = settings(tmp_path, RAGCOURSE_PROVIDER="dashscope", DASHSCOPE_API_KEY="k")
    assert (s.chat_model, s.api_key) == ("qwen-max-latest", "k")
    assert "dashscope" in s.base_url
    s = settings(tmp_path, RAGCOURSE_PROVIDER="ollama")
    assert s.base_url.startswith("http://localhost:11434")


@pytest.mark.parametrize(("env", "message"), [
    ({"RAGCOURSE_PROVIDER": "gpt5"}, "RAGCOURSE_PROVIDER='gpt5' is not a known value"),
    ({"RAGCOURSE_PROVIDER": "openai"}, "needs an API key: set OPENAI_API_KEY"),
    ({"RAGCOURSE_PROVIDER": "compatible"}, "needs RAGCOURSE_BASE_URL"),
    ({"RAGCOURSE_PROVIDER": "azure", "AZURE_OPENAI_API_KEY": "k", "AZURE_OPENAI_ENDPOINT": "https://x"},
     "needs RAGCOURSE_CHAT_MODEL"),
    ({"RAGCOURSE_PROVIDER": "replay"}, "needs RAGCOURSE_REPLAY"),
    ({"RAGCOURSE_TIMEOUT": "soon"}, "is not a number"),
    ({"RAGCOURSE_EMBEDDINGS": "magic"}, "use one of local, api"),
])
def test_bad_values_give_one_line(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(CourseError, match=message) as info:
        settings(tmp_path, **env)
    assert "\n" not in str(info.value)


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / "my.env"
    env_file.write_text("RAGCOURSE_USER=fin_bob\nRAGCOURSE_CHAT_MODEL=from-file\n")
    s = settings(tmp_path, RAGCOURSE_ENV_FILE=str(env_file), RAGCOURSE_CHAT_MODEL="from-env")
    assert (s.user, s.chat_model) == ("fin_bob", "from-env")


def test_missing_or_unreadable_env_file(tmp_path: Path) -> None:
    with pytest.raises(CourseError, match="does not exist"):
        settings(tmp_path, RAGCOURSE_ENV_FILE=str(tmp_path / "nope.env"))
    bad = tmp_path / "bad.env"
    bad.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(CourseError, match="Cannot read"):
        settings(tmp_path, RAGCOURSE_ENV_FILE=str(bad))


def test_cache_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(CourseError, match="not writable.*set RAGCOURSE_CACHE"):
        load_settings({"RAGCOURSE_CACHE": str(tmp_path / "file")})


def test_many_processes_can_check_one_new_cache_folder_at_once(tmp_path: Path) -> None:
    # Two notebooks started together once raced on one probe file name and one of them failed.
    import subprocess
    import sys

    folder = str(tmp_path / "shared")
    script = f"from ragcourse.config import load_settings\nfor _ in range(300): load_settings({{'RAGCOURSE_CACHE': {folder!r}}})"
    runs = [subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE) for _ in range(4)]
    errors = [p.communicate()[1].decode() for p in runs]
    assert [p.returncode for p in runs] == [0, 0, 0, 0], errors


def test_settings_from_reads_only_the_given_variables(monkeypatch):
    from ragcourse.config import settings_from

    monkeypatch.setenv("RAGCOURSE_CHAT_MODEL", "my-own-model")
    monkeypatch.setenv("RAGCOURSE_BASE_URL", "http://127.0.0.1:1/v1")
    s = settings_from({"RAGCOURSE_PROVIDER": "dashscope", "DASHSCOPE_API_KEY": "sk-placeholder"})
    assert (s.chat_model, s.base_url) == ("qwen-max-latest", "https://dashscope.aliyuncs.com/compatible-mode/v1")


def test_max_tokens_and_web_search_settings(monkeypatch):
    from ragcourse.config import MAX_TOKENS, settings_from

    s = settings_from({"RAGCOURSE_MAX_TOKENS": "answer=2000, judge=50", "RAGCOURSE_WEB_SEARCH": "on"})
    assert s.max_tokens == {**MAX_TOKENS, "answer": 2000, "judge": 50} and s.web_search
    assert not settings_from({}).web_search
    with pytest.raises(CourseError, match="RAGCOURSE_MAX_TOKENS has 'essay=10'"):
        settings_from({"RAGCOURSE_MAX_TOKENS": "essay=10"})
