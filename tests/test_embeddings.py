"""The local embedder: real MiniLM vectors, cached on disk, and no model load when the cache already has them."""

import json
import os
import subprocess
import sys

SCRIPT = """
import json, sys
from ragcourse.embeddings import get_embedder
vectors = get_embedder().embed(["Gross margin rose to 45.2%.", "The hotel cap is $220 per night."])
print(json.dumps({"shape": list(vectors.shape), "norm": float((vectors[0] ** 2).sum()),
                  "hits": get_embedder().hits, "cost": get_embedder().seconds_per_text(),
                  "torch": "torch" in sys.modules}))
"""


def run(cache: str) -> dict:
    env = {**os.environ, "RAGCOURSE_CACHE": cache}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_warm_cache_answers_without_loading_the_model(tmp_path):
    cold = run(str(tmp_path))
    assert cold["shape"] == [2, 384] and abs(cold["norm"] - 1.0) < 1e-4
    assert cold["torch"] and cold["hits"] == 0  # the model was needed, and loaded
    warm = run(str(tmp_path))
    assert warm["shape"] == [2, 384] and warm["hits"] == 2
    assert not warm["torch"], "with every text cached, torch must not even be imported"
    assert 0 < cold["cost"] < 5 and warm["cost"] == cold["cost"]  # what embedding cost is kept with the vectors


def test_the_cost_of_embedding_is_measured_on_a_sample_when_nothing_is_recorded(tmp_path):
    from fakes import FakeEmbedder

    from ragcourse.embeddings import CachedEmbedder

    fake = FakeEmbedder()
    cache = CachedEmbedder(fake, tmp_path / "vectors.sqlite")
    try:
        cache.seconds_per_text()
    except ValueError as error:
        assert "sample" in str(error)
    else:
        raise AssertionError("an empty cache has no cost to report")
    assert cache.seconds_per_text(["a ferry timetable", "the harbour tide table"]) > 0
    assert fake.texts == ["a ferry timetable", "the harbour tide table"]
    cache.embed(["a new pier", "a new pier", "a ferry timetable"])  # the sample measured; it was not cached
    cache.embed(["a new pier"])  # a hit: nothing embedded, nothing counted
    assert fake.texts[2:] == ["a new pier", "a ferry timetable"]
    assert cache._db.execute("SELECT texts FROM cost").fetchone() == (4,)
