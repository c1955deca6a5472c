"""Turn the text of a title or abstract into clean, plain Unicode.

Abstracts arrive with HTML from publisher feeds (``<i>``, ``<jats:p>``,
``&amp;``), LaTeX from arXiv (``$\\alpha$``, ``{\\em x}``, ``\\cite{..}``,
``23\\%``, ``Fr\\'echet``) and debris from bad exports (NUL bytes, control
characters, zero-width spaces, lone surrogates). Every character offset the
extractors produce refers to the cleaned text, so cleaning happens once, here,
and everything is a pure function of a string.

What :func:`clean_text` does, in order, until nothing changes:

1. HTML: the contents of ``<script>``/``<style>`` elements, comments, DOCTYPE
   and processing instructions are dropped; tags of known HTML, MathML and
   JATS elements are removed (block elements leave a space, inline ones
   nothing); ``<a href="URL">text</a>`` keeps its URL as ``text (URL)``.
   Anything that merely looks like a tag (``n<m and m>k``) is kept, since
   abstracts compare quantities far more often than they contain odd markup.
   An unclosed ``<script>`` loses only its tag, never the text after it.
   Every step runs in linear time, whatever the input.
2. HTML entities are unescaped (:func:`html.unescape`).
3. LaTeX, outside URLs: math (``$..$`` by pandoc's rule, so ``$5 and $10``
   stays money; ``$$..$$``, ``\\(..\\)``) loses its markup and Greek letters and
   common symbols become Unicode (``$\\alpha \\leq 1$`` -> ``α ≤ 1``);
   ``\\cite``/``\\ref``/``\\label`` are dropped; ``\\emph{x}``, ``\\textbf{x}``,
   ``{\\em x}`` and other one-argument commands keep their argument; accents
   compose (``\\'e`` -> ``é``); ``\\%``, ``\\&``, ``\\_`` unescape; ``\\,`` and
   a ``~`` tie between two words become spaces (``by ~5%`` keeps its ``~``);
   an unknown command keeps its name (``\\algopt`` -> ``algopt``) so no word
   disappears.
4. Control characters (Unicode ``Cc``), lone surrogates, non-characters and
   invisible format characters (zero-width space, BOM, soft hyphen) are
   removed; whitespace-like controls become spaces.
5. Unicode NFC, then every run of whitespace becomes one space.

Running the steps to a fixed point makes ``clean_text`` idempotent:
``&amp;lt;b&amp;gt;`` unescapes to a tag that the next pass removes, exactly as
a second call would. The price is that escaped markup in the source is treated
as markup; for abstracts that is the intent. (The passes stop at 64, so only
text escaped more than 60 times over, ``&amp;amp;amp;...``, stays unsettled.)
"""

from __future__ import annotations

import bisect
import html
import re
import unicodedata
from collections.abc import Callable

__all__ = ["clean_text", "remove_controls", "simplify_latex", "strip_html"]

# A safety net only: real text reaches its fixed point in two or three passes.
_MAX_PASSES = 64

# --- HTML -------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    "address article aside blockquote body br caption dd div dl dt figcaption figure footer "
    "h1 h2 h3 h4 h5 h6 head header hr html li main nav ol p pre section table tbody td tfoot "
    "th thead title tr ul sec abstract list-item list".split()
)
_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo big cite code del dfn em font i img ins kbd mark q s samp small span "
    "strike strong sub sup time tt u var wbr italic bold monospace sc underline "
    "math mi mn mo ms mtext mrow msub msup msubsup mfrac msqrt mroot mstyle mspace mover "
    "munder munderover mtable mtr mtd semantics annotation inline-formula script style".split()
)
_TAG = re.compile(
    r"</?(?:[A-Za-z][\w.-]*:)?(?P<name>[A-Za-z][A-Za-z0-9-]*)"
    r"(?:\s(?:\"[^\"<>]*\"|'[^'<>]*'|[^'\"<>])*)?/?>"
)
# Element openers and closers are found separately (see _elements) so that a
# thousand unclosed ``<script>`` tags cost one scan, not a thousand.
_SCRIPT = re.compile(r"<(script|style)\b[^<>]*>", re.IGNORECASE)
_LINK = re.compile(
    r"<a\s(?:[^<>]*?\s)?href\s*=\s*([\"'])(?P<url>https?://[^\"'<>\s]+)\1[^<>]*>", re.IGNORECASE
)
_COMMENT = re.compile(r"<!--")
_CDATA = re.compile(r"<!\[CDATA\[")
_DECLARATION_TAG = re.compile(r"<!DOCTYPE[^<>]*>|<\?[^<>]*\?>", re.IGNORECASE)


def _elements(
    text: str,
    opener: re.Pattern[str],
    closer: Callable[[re.Match[str]], str],
    replace: Callable[[re.Match[str], str], str],
) -> str:
    """Replace each ``opener ... closer`` span with ``replace(opening, inner text)``.

    An opener without a closer is left as it is. Linear time: a closer that
    is not found from one position is not searched for again.
    """
    pieces, position, missing = [], 0, set()
    while (start := opener.search(text, position)) is not None:
        close = closer(start)
        end = None if close in missing else re.compile(close, re.IGNORECASE).search(text, start.end())
        if end is None:
            missing.add(close)
            pieces.append(text[position : start.end()])
        else:
            pieces += [text[position : start.start()], replace(start, text[start.end() : end.start()])]
        position = start.end() if end is None else end.end()
    pieces.append(text[position:])
    return "".join(pieces)


def _link_text(opening: re.Match[str], text: str) -> str:
    # Keep the address: a code link is a fact the extractors look for.
    return text if opening["url"] in text else f"{text} ({opening['url']})"


def _tag(match: re.Match[str]) -> str:
    name = match["name"].lower()
    if name in _BLOCK_TAGS:
        return " "
    return "" if name in _INLINE_TAGS else match[0]


def strip_html(text: str) -> str:
    """Remove HTML, MathML and JATS markup, keeping the words.

    >>> strip_html("<p>We use <i>BERT</i>.</p><script>x()</script>")
    ' We use BERT.  '
    >>> strip_html("if n<m and m>k")
    'if n<m and m>k'
    >>> strip_html('code at <a href="https://x.org/y">our site</a>')
    'code at our site (https://x.org/y)'
    """
    if "<" not in text:
        return text
    text = _elements(text, _COMMENT, lambda _: "-->", lambda _, inner: " ")
    text = _elements(text, _CDATA, lambda _: r"\]\]>", lambda _, inner: inner)
    text = _DECLARATION_TAG.sub(" ", text)
    text = _elements(text, _SCRIPT, lambda start: rf"</{start[1]}\s*>", lambda _, inner: " ")
    text = _elements(text, _LINK, lambda _: r"</a\s*>", _link_text)
    return _TAG.sub(_tag, text)


# --- LaTeX ------------------------------------------------------------------

_SYMBOLS = {
    **{
        name: chr(code)
        for name, code in zip(
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
            "pi rho sigma tau upsilon phi chi psi omega".split(),
            (*range(0x3B1, 0x3C2), *range(0x3C3, 0x3CA)),
        )
    },
    **{
        name: chr(code)
        for name, code in zip(
            "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split(),
            (0x393, 0x394, 0x398, 0x39B, 0x39E, 0x3A0, 0x3A3, 0x3A5, 0x3A6, 0x3A8, 0x3A9),
        )
    },
    "varepsilon": "ε", "vartheta": "ϑ", "varphi": "φ", "varrho": "ϱ", "varsigma": "ς",
    "times": "×", "cdot": "·", "pm": "±", "mp": "∓", "div": "÷", "leq": "≤", "le": "≤",
    "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃",
    "equiv": "≡", "propto": "∝", "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "∑",
    "prod": "∏", "int": "∫", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆",
    "cup": "∪", "cap": "∩", "emptyset": "∅", "forall": "∀", "exists": "∃", "neg": "¬",
    "wedge": "∧", "vee": "∨", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "leftrightarrow": "↔", "mapsto": "↦",
    "ell": "ℓ", "hbar": "ℏ", "circ": "∘", "ast": "∗", "star": "⋆", "dagger": "†",
    "ldots": "…", "dots": "…", "cdots": "⋯", "langle": "⟨", "rangle": "⟩",
    "lvert": "|", "rvert": "|", "mid": "|", "vert": "|", "|": "‖", "ss": "ß", "o": "ø",
    "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "l": "ł",
    "L": "Ł", "i": "ı", "ie": "i.e.", "eg": "e.g.", "etal": "et al.", "etc": "etc.",
    "textasciitilde": "~", "textbackslash": "\\", "textasciicircum": "^", "textendash": "–",
    "textemdash": "—", "textdegree": "°", "degree": "°", "copyright": "©",
    "left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "quad": " ",
    "qquad": " ", "displaystyle": "", "textstyle": "", "limits": "", "nolimits": "",
    "noindent": "", "centering": "", "par": " ", "newline": " ", "linebreak": " ",
}
# Font switches written as declarations: ``{\em word}``, ``{\bf word}``.
_DECLARATIONS = (
    "em it bf sc tt rm sl sf bfseries itshape ttfamily scshape upshape mdseries rmfamily "
    "sffamily small large Large LARGE footnotesize scriptsize tiny normalsize huge Huge".split()
)
_DROPPED = (
    "cite citep citet citealp citealt citeauthor citeyear nocite ref eqref autoref cref Cref "
    "pageref label vspace hspace".split()
)
_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a",
}
_ESCAPES = {
    "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}",
    ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "\\": " ",
}

# A tie sits between two words (``Frame~(ETF)``, ``ROS~2``); ``by ~5%`` means "about".
_TIE = re.compile(r"(?<=\S)~(?=\S)")
_LATEX_HINT = re.compile(r"[\\$~{}]")  # without these, there is no LaTeX to simplify
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'{}\\]+")
_LINK_COMMAND = re.compile(r"\\href\{([^{}]*)\}\{([^{}]*)\}|\\url\{([^{}]*)\}")
# Bounded, so that many unclosed ``\(`` cannot make the scan quadratic.
_DISPLAY_MATH = re.compile(r"\$\$(.{1,2000}?)\$\$|\\\((.{1,2000}?)\\\)|\\\[(.{1,2000}?)\\\]", re.DOTALL)
# Pandoc's rule: ``$`` opens when a non-space follows it and closes when a
# non-space precedes it and no digit follows, so prices are not math.
_INLINE_MATH = re.compile(r"(?<!\\)\$(?!\s)([^$]*?[^$\s\\])\$(?!\d)|(?<!\\)\$([^$\s\\])\$(?!\d)")
# ``\'e``, ``\'{e}``, ``{\'e}``, ``\c{c}``, ``{\c c}``: braces must pair, so ``\emph{caf\'e}`` keeps its ``}``.
_ACCENT = re.compile(
    r"(?P<open>\{)?(?:\\(?P<mark>['`^\"~=.])\s*|\\(?P<named>[uvHckr])(?:(?=\{)|\s+))"
    r"(?:\{(?P<braced>\\[ij](?![A-Za-z])|[A-Za-z])\}|(?P<bare>\\[ij](?![A-Za-z])|[A-Za-z]))"
    r"(?(open)\})"
)
# The space before ``\cite`` goes too; matching only from the start of a run of
# spaces keeps a long run from being rescanned at each of its positions.
_DROP = re.compile(
    r"(?<![\s~])[\s~]*\\(?:" + "|".join(_DROPPED) + r")\*?(?:\[[^\[\]{}]*\])*\{[^{}]*\}"
)
_DECLARATION = re.compile(r"\\(?:" + "|".join(_DECLARATIONS) + r")(?![A-Za-z])\s*")
_DECLARED_GROUP = re.compile(r"\{\\(?:" + "|".join(_DECLARATIONS) + r")(?![A-Za-z])\s*([^{}]*)\}")
_FRAC = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\{([^{}]*)\}")
_BRACES = re.compile(r"\\[A-Za-z]+\*?(?:\[[^\[\]{}]*\])?\{|(?<!\\)[{}]")
_SPACE_OR_COMMA = re.compile(r"[\s,]")
_COMMAND = re.compile(r"\\([A-Za-z]+|[%&_#${},;:! \\|])")


def _accent(match: re.Match[str]) -> str:
    mark = match["mark"] or match["named"]
    letter = (match["braced"] or match["bare"]).lstrip("\\")
    return letter + _ACCENTS[mark]


def _command(match: re.Match[str]) -> str:
    name = match[1]
    if name in _ESCAPES:
        return _ESCAPES[name]
    return _SYMBOLS.get(name, name)


def _commands(text: str, *, math: bool) -> str:
    """Replace LaTeX commands in ``text``; in math also drop grouping braces."""
    text = _ACCENT.sub(_accent, text)
    text = _DROP.sub("", text)
    text = _DECLARED_GROUP.sub(r"\1", text)
    text = _DECLARATION.sub("", text)
    text = _FRAC.sub(r"\1/\2", text)
    text = _SQRT.sub("√\\1", text)
    # Symbols first, so ``\in\mathbb{R}`` cannot fuse into a command ``\inR``.
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _SYMBOLS.get(m[1], m[0]), text)
    return _COMMAND.sub(_command, _ungroup(text, math=math))


def _ungroup(text: str, *, math: bool) -> str:
    """Unwrap ``\\cmd{x}`` to ``x`` at any depth and drop grouping braces, in one pass.

    In math every unescaped brace goes. Outside it a group goes only when it
    holds no space or comma (BibTeX's ``{BERT}``), so a set ``{0,1}`` stays.
    """
    pieces: list[str] = []
    stack: list[tuple[bool, int, int]] = []  # (a command's argument?, piece index, text offset)
    position = 0
    separators = [match.start() for match in _SPACE_OR_COMMA.finditer(text)] if not math else []
    for token in _BRACES.finditer(text):
        pieces.append(text[position : token.start()])
        position = token.end()
        if token[0] != "}":
            stack.append((token[0] != "{", len(pieces), token.end()))
            pieces.append("" if token[0] != "{" or math else "{")
        elif not stack:
            pieces.append("" if math else "}")
        else:
            argument, index, start = stack.pop()
            first = bisect.bisect_left(separators, start)
            if argument or math or first == len(separators) or separators[first] > token.start():
                pieces[index] = ""
                pieces.append("")
            else:
                pieces.append("}")
    pieces.append(text[position:])
    return "".join(pieces)


def _math(match: re.Match[str]) -> str:
    body = next(group for group in match.groups() if group is not None)
    return _commands(body, math=True).strip()


def _latex_segment(text: str) -> str:
    text = _DISPLAY_MATH.sub(_math, text)
    text = _INLINE_MATH.sub(_math, text)
    return _TIE.sub(" ", _commands(text, math=False))


def simplify_latex(text: str) -> str:
    """Reduce LaTeX markup to the plain text a reader would see.

    URLs are left untouched (``~`` and ``%`` are common in them).

    >>> simplify_latex(r"We improve {\\em accuracy} by 23\\% over~\\cite{a,b}.")
    'We improve accuracy by 23% over.'
    >>> simplify_latex(r"$\\alpha$-divergence with \\textbf{fast} Fr\\'echet means")
    'α-divergence with fast Fréchet means'
    >>> simplify_latex("it costs $5 and $10; see https://x.org/~me")
    'it costs $5 and $10; see https://x.org/~me'
    """
    if not _LATEX_HINT.search(text):
        return unicodedata.normalize("NFC", text)
    text = _LINK_COMMAND.sub(lambda m: m[3] if m[3] is not None else f"{m[2]} ({m[1]})", text)
    pieces: list[str] = []
    last = 0
    for url in _URL.finditer(text):
        pieces += [_latex_segment(text[last : url.start()]), url[0]]
        last = url.end()
    pieces.append(_latex_segment(text[last:]))
    return unicodedata.normalize("NFC", "".join(pieces))


# --- Characters -------------------------------------------------------------

# Invisible format characters that only ever get in the way of matching.
_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200e\u200f\u2060\ufeff\u180e")
_SPACE = re.compile(r"\s+")


def _keep(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cc":
        return " " if char.isspace() else ""
    if category == "Cs" or char in _INVISIBLE or (ord(char) & 0xFFFE) == 0xFFFE:
        return ""
    return char


def remove_controls(text: str) -> str:
    """Remove control, surrogate, non- and invisible characters.

    Whitespace-like controls (tab, newline, ...) become a space so that words
    on either side stay apart.

    >>> remove_controls("a\\x00b\\tc\\u200bd\\ud800")
    'ab cd'
    """
    if text.isprintable():
        return text
    return "".join(_keep(char) for char in text)


def _clean_once(text: str) -> str:
    text = html.unescape(strip_html(text))
    text = remove_controls(simplify_latex(text))
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def clean_text(text: str) -> str:
    """Clean a title or abstract: HTML, LaTeX and control characters out.

    The result has single spaces only, no control characters, and
    ``clean_text(clean_text(s)) == clean_text(s)``.

    >>> clean_text("  <p>Deep&nbsp;nets\\r\\n for $\\\\ell_1$ <b>recovery</b></p>\\x00 ")
    'Deep nets for ℓ_1 recovery'
    >>> clean_text("&amp;lt;b&amp;gt;bold&amp;lt;/b&amp;gt;")
    'bold'
    """
    for _ in range(_MAX_PASSES):
        cleaned = _clean_once(text)
        if cleaned == text:
            break
        text = cleaned
    return text
