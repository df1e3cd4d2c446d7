from ragcourse.bm25 import BM25Index, tokenize
from ragcourse.chunking import Chunk


def chunk(cid: str, text: str, title: str = "Doc") -> Chunk:
    doc_id = cid.split(":")[0]
    return Chunk(chunk_id=cid, doc_id=doc_id, position=int(cid.split(":")[1]), title=title, heading="", text=text,
                 source=f"docs/{doc_id}.md")


def test_tokenizer_keeps_codes_and_decimals_and_stems_words():
    terms = tokenize("The LUM-C-2023-014 contract: Margins rose to 45.2% on 5,183 raw-material units.")
    assert "lum-c-2023-014" in terms and "2023" in terms  # the code whole, and its parts
    assert "45.2" in terms and "5183" in terms
    assert "raw-material" in terms and "raw" in terms and "materi" in terms
    assert "margin" in terms and "unit" in terms  # stemmed
    assert "the" not in terms and "to" not in terms  # stop words


def test_a_short_month_name_is_the_month():
    assert tokenize("rate on 31 Dec 2024") == tokenize("rate on 31 December 2024")
    assert tokenize("Sept. 2023") == tokenize("September 2023")


def test_tokenizer_handles_other_scripts_and_nothing():
    assert tokenize("毛利率 对比") == ["毛", "利", "率", "对", "比"]
    assert tokenize("") == [] and tokenize("the of and") == []


CHUNKS = [
    chunk("a:000", "Gross margin rose to 45.2% in the third quarter."),
    chunk("a:001", "Operating expenses grew because of R&D."),
    chunk("b:000", "Contract LUM-C-2023-014 with Sable Rail: liability is capped."),
    chunk("c:000", "The salary increase rate for 2025 is in the compensation plan; gross margin is not."),
]


def test_search_ranks_matching_chunks_and_skips_non_matching():
    index = BM25Index(CHUNKS)
    results = index.search("gross margin", 10)
    assert [cid for cid, _ in results] == ["a:000", "c:000"]
    assert results[0][1] > results[1][1] > 0
    assert index.search("LUM-C-2023-014", 1)[0][0] == "b:000"
    assert index.search("zebra", 10) == [] and index.search("   ", 10) == []


def test_only_allowed_chunks_are_scored():
    index = BM25Index(CHUNKS)
    allowed = index.chunk_ids_of(["a", "b"])
    assert allowed == ["a:000", "a:001", "b:000"]
    assert [cid for cid, _ in index.search("salary increase rate gross margin", 10, allowed=allowed)] == ["a:000"]
    assert index.search("gross margin", 10, allowed=[]) == []
    assert index.search("gross margin", 10, allowed=["unknown:000"]) == []


def test_empty_index_finds_nothing():
    assert BM25Index([]).search("anything", 5) == []
