"""Figures for the report and notebooks, drawn with matplotlib's object API (no pyplot, no global state).

Each function takes a table from :mod:`kg.analysis` and returns a
:class:`matplotlib.figure.Figure` whose (first) axes carries the given title.
An empty table gives a figure that says so instead of failing, so a report of
a small build still renders; :func:`marks` counts what a figure actually
draws, which is how tests (and the report's ``data-marks``) tell the two apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["bar_chart", "community_map", "empty_reason", "heat_map", "histogram", "marks", "support_bars", "trend_lines"]

_PALETTE = "tab20"
_EMPTY = "empty: "


def _figure(width: float = 7.0, height: float = 4.0) -> Figure:
    """A new figure of ``width`` × ``height`` inches with constrained layout, outside pyplot.

    >>> _figure(5, 2).get_size_inches().tolist()
    [5.0, 2.0]
    """
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _short(value: object, most: int = 40) -> str:
    """``value`` as text of at most ``most`` characters, an ellipsis marking a cut.

    >>> _short("a" * 50, 10)
    'aaaaaaaaa…'
    """
    text = str(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def _empty(fig: Figure, title: str, why: str) -> Figure:
    """``fig`` with one titled, axis-less axes saying ``why`` there is nothing to draw.

    >>> fig = _empty(_figure(), "Trends", "no dates")
    >>> fig.axes[0].get_title(), empty_reason(fig), marks(fig)
    ('Trends', 'no dates', 0)
    """
    fig.set_label(_EMPTY + why)
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, color="0.4")
    ax.set_axis_off()
    return fig


def empty_reason(fig: Figure) -> str | None:
    """Why ``fig`` draws nothing (``"no data"``, ``"no paper has a date..."``), or ``None`` if it draws.

    >>> import pandas as pd
    >>> empty_reason(bar_chart(pd.DataFrame(), "Top")), empty_reason(bar_chart(pd.DataFrame({"label": ["a"], "papers": [1]}), "Top"))
    ('no data', None)
    """
    label = str(fig.get_label())  # a str: matplotlib's stub says object
    return label[len(_EMPTY):] if label.startswith(_EMPTY) else None


def marks(fig: Figure) -> int:
    """How many data marks (bars, lines, points, image cells) ``fig`` draws; 0 for an empty plot.

    >>> import pandas as pd
    >>> marks(bar_chart(pd.DataFrame({"label": ["a", "b"], "papers": [2, 1]}), "Top")), marks(bar_chart(pd.DataFrame(), "Top"))
    (2, 0)
    """
    import numpy as np
    from matplotlib.collections import PathCollection

    count = 0
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":
            continue
        count += len(ax.patches) + sum(cells.size for img in ax.images if (cells := img.get_array()) is not None)
        # Points on named lines (data series); unnamed lines such as graph edges are decoration.
        count += sum(len(np.asarray(line.get_xdata())) for line in ax.lines if not str(line.get_label()).startswith("_"))
        count += sum(len(np.asarray(c.get_offsets())) for c in ax.collections if isinstance(c, PathCollection))
    return count


def bar_chart(table: pd.DataFrame, title: str, *, value: str = "papers", label: str = "label", xlabel: str = "papers") -> Figure:
    """Horizontal bars of ``table[value]`` by ``table[label]``, largest on top.

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.tables import top_entities
    >>> fig = bar_chart(top_entities(tiny_graph(), "Dataset"), "Most used datasets")
    >>> fig.axes[0].get_title(), marks(fig)
    ('Most used datasets', 3)
    """
    fig = _figure(7.0, max(2.5, 0.28 * len(table) + 1.2))
    if table.empty:
        return _empty(fig, title, "no data")
    ax = fig.add_subplot()
    labels = [_short(v) for v in table[label]]
    ax.barh(range(len(table)), table[value], color="#4c72b0")
    ax.set_yticks(range(len(table)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.xaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]  # a MaxNLocator's; the stub types Locator's
    return fig


def heat_map(matrix: pd.DataFrame, title: str) -> Figure:
    """A method × dataset heat map (:func:`kg.analysis.tables.method_dataset_matrix`), counts written in the cells.

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.tables import method_dataset_matrix
    >>> fig = heat_map(method_dataset_matrix(tiny_graph()), "Methods × datasets")
    >>> fig.axes[0].get_title(), marks(fig)
    ('Methods × datasets', 12)
    """
    fig = _figure(max(6.0, 0.4 * matrix.shape[1] + 4.5), max(3.5, 0.3 * matrix.shape[0] + 2.5))
    if matrix.empty:
        return _empty(fig, title, "no method is evaluated on a dataset")
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm, ListedColormap

    ax = fig.add_subplot()
    # Counts are whole numbers: one colour per count (per band of counts past ten), not a 0-1 gradient.
    top = int(matrix.to_numpy().max())
    step = 1 if top <= 10 else -(-top // 9)
    bounds = [-0.5, 0.5, *(0.5 + step * k for k in range(1, -(-top // step) + 1))]
    names = ["0", *(str(int(a + 0.5)) if b - a == 1 else f"{int(a + 0.5)}–{int(b - 0.5)}" for a, b in zip(bounds[1:], bounds[2:]))]
    blues = colormaps["Blues"]
    palette = ListedColormap([blues(0.02)] + [blues(0.25 + 0.75 * k / max(1, len(names) - 2)) for k in range(len(names) - 1)])
    image = ax.imshow(matrix.to_numpy(), cmap=palette, norm=BoundaryNorm(bounds, palette.N), aspect="auto")
    ax.set_xticks(range(matrix.shape[1]), [_short(c, 25) for c in matrix.columns], rotation=45, ha="right")
    ax.set_yticks(range(matrix.shape[0]), [_short(i) for i in matrix.index])
    for (row, column), count in zip(((r, c) for r in range(matrix.shape[0]) for c in range(matrix.shape[1])), matrix.to_numpy().ravel()):
        if count:
            red, green, blue, _ = palette(image.norm(count))
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5  # white text on dark cells only
            ax.text(column, row, str(count), ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xlabel("dataset")
    ax.set_ylabel("method")
    ax.set_title(title)
    bar = fig.colorbar(image, ax=ax, label="papers", shrink=0.8)
    bar.set_ticks([(a + b) / 2 for a, b in zip(bounds, bounds[1:])], labels=names)
    bar.ax.minorticks_off()
    return fig


def community_map(G: nx.Graph, found: pd.DataFrame, title: str, *, communities: int = 12, seed: int = 0) -> Figure:
    """The largest communities as discs sized by membership, linked by the weight of the links between them.

    Each disc is one community of ``found`` (two or more members), named by
    its two best-connected members; a line's width is the total weight of
    the links between two communities. Placed by a seeded force layout.

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.networks import communities as find, entity_graph
    >>> G = entity_graph(tiny_graph())
    >>> fig = community_map(G, find(G), "Communities")
    >>> fig.axes[0].get_title(), marks(fig)
    ('Communities', 2)
    """
    from matplotlib import colormaps

    fig = _figure(8.0, 6.0)
    sizes = found[found["size"] >= 2].groupby("community").size()
    chosen = list(sizes.sort_index().index[:communities])
    if not chosen:
        return _empty(fig, title, "no two entities share an abstract")
    member = dict(zip(found.node, found.community))
    strength = dict(G.degree(weight="weight"))
    between = nx.Graph()
    between.add_nodes_from(chosen)
    for u, v, weight in G.edges(data="weight", default=1):
        a, b = member[u], member[v]
        if a != b and a in between and b in between:
            previous = between.get_edge_data(a, b, {"weight": 0})["weight"]
            between.add_edge(a, b, weight=previous + weight)
    names = {}
    for community in chosen:
        members = sorted(found[found.community == community].itertuples(index=False), key=lambda m: (-strength.get(m.node, 0), m.label))
        names[community] = "\n".join(str(m.label)[:28] for m in members[:2])
    position = nx.spring_layout(between, weight="weight", seed=seed)
    heaviest = max((w for _, _, w in between.edges(data="weight")), default=1)
    colours = colormaps[_PALETTE]
    ax = fig.add_subplot()
    for a, b, weight in between.edges(data="weight"):
        (x1, y1), (x2, y2) = position[a], position[b]
        ax.plot([x1, x2], [y1, y2], color="0.6", linewidth=0.5 + 5 * weight / heaviest, alpha=0.5, zorder=1, label="_link")
    largest = int(sizes.max())
    ax.scatter([position[c][0] for c in chosen], [position[c][1] for c in chosen], s=[200 + 2800 * sizes[c] / largest for c in chosen], c=[colours(c % 20) for c in chosen], alpha=0.85, edgecolors="white", zorder=2)
    for community in chosen:
        ax.annotate(
            f"{community}: {names[community]}\n({sizes[community]})", position[community], fontsize=10, ha="center", va="center", zorder=3,
            bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.8},
        )
    ax.margins(0.15)
    ax.set_axis_off()
    ax.set_title(title)
    return fig


def trend_lines(table: pd.DataFrame, title: str) -> Figure:
    """Share of each year's papers mentioning each entity (:func:`kg.analysis.tables.trends`), one line each.

    With a single year there is no line to draw, so the shares are bars.

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.tables import trends
    >>> fig = trend_lines(trends(tiny_graph(), "Task"), "Tasks over the years")
    >>> fig.axes[0].get_title(), marks(fig)
    ('Tasks over the years', 6)
    """
    fig = _figure(7.5, 4.0)
    if table.empty:
        return _empty(fig, title, "no paper has a date (dcterms:date)")
    ax = fig.add_subplot()
    years = sorted(table.year.unique())
    if len(years) == 1:
        ordered = table.sort_values("share", ascending=True, kind="stable")
        ax.barh(ordered.label, ordered.share, color="#4c72b0")
        ax.set_xlabel(f"share of {years[0]} papers")
    else:
        for label, rows in table.groupby("label", sort=False):
            ax.plot(rows.year, rows.share, marker="o", markersize=3, label=str(label)[:30])
        ax.set_xlabel("year")
        ax.set_ylabel("share of that year's papers")
        ax.xaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]  # a MaxNLocator's; the stub types Locator's
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    ax.set_title(title)
    return fig


def support_bars(table: pd.DataFrame, title: str) -> Figure:
    """Facts per relation, split by support: one paper, two, three or more (:func:`kg.analysis.quality.support_by_relation`).

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.quality import support_by_relation
    >>> fig = support_bars(support_by_relation(tiny_graph()), "Support per fact")
    >>> fig.axes[0].get_title(), marks(fig)
    ('Support per fact', 18)
    """
    fig = _figure(7.0, 3.8)
    if table.empty:
        return _empty(fig, title, "no facts")
    ax = fig.add_subplot()
    bucket = table.support.clip(upper=3).map({1: "1 paper", 2: "2 papers", 3: "3 or more"})
    counts = table.assign(bucket=bucket).pivot_table(index="relation", columns="bucket", values="facts", aggfunc="sum", fill_value=0)
    counts = counts.reindex(columns=["1 paper", "2 papers", "3 or more"], fill_value=0)
    counts = counts.loc[counts.sum(axis=1).sort_values(kind="stable").index]
    left = None
    for column, colour in zip(counts.columns, ("#dd8452", "#55a868", "#4c72b0")):
        ax.barh(counts.index, counts[column], left=left, label=column, color=colour)
        left = counts[column] if left is None else left + counts[column]
    ax.set_xlabel("facts")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title)
    return fig


def histogram(values: pd.Series, title: str, *, bins: int = 20, xlabel: str = "confidence") -> Figure:
    """A histogram of ``values`` (confidences in [0, 1] by default).

    >>> from kg.analysis.sample import tiny_graph
    >>> from kg.analysis.quality import confidences
    >>> fig = histogram(confidences(tiny_graph()).confidence, "Confidence", bins=10)
    >>> fig.axes[0].get_title(), marks(fig)
    ('Confidence', 10)
    """
    fig = _figure(7.0, 3.5)
    if len(values) == 0:
        return _empty(fig, title, "no facts")
    ax = fig.add_subplot()
    ax.hist(values, bins=bins, range=(0.0, 1.0), color="#4c72b0", edgecolor="white")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("statements")
    ax.set_title(title)
    return fig
