"""Well-known names of machine-learning things that spelling rules cannot join.

Each entry is ``(canonical label, classes it applies to, spellings)``.
Spellings are compared by :func:`kg.resolve.normalise.compact`, so the table
lists each *different* name once; case, hyphens, plurals and possessives are
handled by normalisation (``GANs`` needs no entry of its own). An alias only
joins mentions of the listed classes: ``MAP`` is mean average precision as a
Metric, but a Method called MAP (the estimator) is left alone.

Deliberately absent: abbreviations that are ambiguous in the field at large
(``SSL``: self- or semi-supervised; ``CV``: computer vision or
cross-validation). Versions are separate entries or none at all: the table
never joins ``GPT-3`` and ``GPT-4``, ``ResNet-50`` and ``ResNet-101``.
"""

from __future__ import annotations

from functools import lru_cache

from kg.resolve.normalise import compact

_M = frozenset({"Method"})
_MT = frozenset({"Method", "Task"})
_T = frozenset({"Task"})
_D = frozenset({"Dataset"})
_X = frozenset({"Metric"})
_ANY = _MT | _D

ALIASES: tuple[tuple[str, frozenset[str], tuple[str, ...]], ...] = (
    # Models and model families
    ("BERT", _M, ("BERT", "Bidirectional Encoder Representations from Transformers")),
    ("BERT-base", _M, ("BERT-base", "base BERT", "BERT-base uncased", "BERT-base-uncased")),
    ("BERT-large", _M, ("BERT-large", "large BERT", "BERT-large uncased", "BERT-large-uncased")),
    ("multilingual BERT", _M, ("mBERT", "M-BERT", "multilingual BERT")),
    ("DistilBERT", _M, ("DistilBERT", "distilled BERT")),
    (
        "RoBERTa",
        _M,
        (
            "RoBERTa",
            "robustly optimized BERT approach",
            "robustly optimized BERT pretraining approach",
        ),
    ),
    (
        "Transformer",
        _M,
        (
            "Transformer",
            "Transformer architecture",
            "Transformer network",
            "transformer model",
        ),
    ),
    ("vision transformer", _M, ("ViT", "vision transformer")),
    (
        "generative adversarial network",
        _M,
        (
            "GAN",
            "generative adversarial network",
            "generative adversarial net",
        ),
    ),
    ("large language model", _M, ("LLM", "large language model", "large-scale language model", "large LM")),
    ("language model", _M, ("LM", "language model")),
    ("pretrained language model", _M, ("PLM", "pretrained language model", "PrLM")),
    (
        "convolutional neural network",
        _M,
        (
            "CNN",
            "ConvNet",
            "convolutional network",
            "convolutional neural network",
            "convolution neural network",
        ),
    ),
    (
        "recurrent neural network",
        _M,
        (
            "RNN",
            "recurrent neural network",
            "recurrent network",
            "recurrent net",
        ),
    ),
    (
        "long short-term memory",
        _M,
        (
            "LSTM",
            "long short-term memory",
            "LSTM network",
            "long short-term memory network",
        ),
    ),
    (
        "bidirectional LSTM",
        _M,
        (
            "BiLSTM",
            "Bi-LSTM",
            "bidirectional LSTM",
            "bidirectional long short-term memory",
        ),
    ),
    ("gated recurrent unit", _M, ("GRU", "gated recurrent unit")),
    ("graph neural network", _M, ("GNN", "graph neural network", "graph neural net")),
    ("graph convolutional network", _M, ("GCN", "graph convolutional network", "graph convolution network")),
    ("graph attention network", _M, ("GAT", "graph attention network")),
    ("multilayer perceptron", _M, ("MLP", "multilayer perceptron", "multi-layer perceptron")),
    ("variational autoencoder", _M, ("VAE", "variational autoencoder")),
    ("support vector machine", _M, ("SVM", "support vector machine")),
    ("conditional random field", _M, ("CRF", "conditional random field")),
    ("hidden Markov model", _M, ("HMM", "hidden Markov model")),
    (
        "principal component analysis",
        _M,
        (
            "PCA",
            "principal component analysis",
            "principal components analysis",
        ),
    ),
    ("stochastic gradient descent", _M, ("SGD", "stochastic gradient descent")),
    ("mixture of experts", _M, ("MoE", "mixture of experts", "mixture-of-experts model")),
    ("low-rank adaptation", _M, ("LoRA", "low-rank adaptation")),
    ("retrieval-augmented generation", _MT, ("RAG", "retrieval-augmented generation")),
    (
        "chain-of-thought prompting",
        _M,
        (
            "CoT",
            "chain of thought",
            "chain-of-thought prompting",
            "CoT prompting",
        ),
    ),
    (
        "reinforcement learning from human feedback",
        _M,
        (
            "RLHF",
            "reinforcement learning from human feedback",
        ),
    ),
    ("neural architecture search", _MT, ("NAS", "neural architecture search")),
    ("knowledge distillation", _MT, ("KD", "knowledge distillation")),
    ("LLaMA", _M, ("LLaMA", "Llama 1", "LLaMA-1")),
    ("Llama 2", _M, ("Llama 2", "Llama-2", "LLaMA2")),
    ("Llama 3", _M, ("Llama 3", "Llama-3", "LLaMA3")),
    ("GPT-3", _M, ("GPT-3", "GPT 3")),
    ("GPT-4", _M, ("GPT-4", "GPT 4")),
    ("word2vec", _M, ("word2vec", "word to vec", "word-to-vector")),
    # Learning paradigms and tasks
    ("reinforcement learning", _MT, ("RL", "reinforcement learning")),
    ("deep reinforcement learning", _MT, ("DRL", "deep RL", "deep reinforcement learning")),
    (
        "named entity recognition",
        _MT,
        (
            "NER",
            "named entity recognition",
            "named entity recognizer",
            "entity recognition and classification",
        ),
    ),
    ("question answering", _MT, ("QA", "question answering", "question-answering task")),
    ("visual question answering", _MT, ("VQA", "visual question answering")),
    ("machine translation", _MT, ("MT", "machine translation")),
    ("neural machine translation", _MT, ("NMT", "neural machine translation")),
    ("natural language inference", _MT, ("NLI", "natural language inference")),
    ("natural language processing", _MT, ("NLP", "natural language processing")),
    ("natural language understanding", _MT, ("NLU", "natural language understanding")),
    ("natural language generation", _MT, ("NLG", "natural language generation")),
    (
        "part-of-speech tagging",
        _MT,
        (
            "POS tagging",
            "part-of-speech tagging",
            "PoS tagger",
            "part-of-speech tagger",
        ),
    ),
    ("automatic speech recognition", _MT, ("ASR", "automatic speech recognition", "speech recognition")),
    ("optical character recognition", _MT, ("OCR", "optical character recognition")),
    ("knowledge graph", _ANY, ("KG", "knowledge graph")),
    ("semantic role labeling", _MT, ("SRL", "semantic role labeling", "semantic role labelling")),
    ("word sense disambiguation", _MT, ("WSD", "word sense disambiguation")),
    # Data sets
    (
        "ImageNet",
        _D,
        (
            "ImageNet",
            "ImageNet-1k",
            "ILSVRC",
            "ILSVRC-2012",
            "ImageNet ILSVRC-2012",
            "ImageNet LSVRC-2012",
        ),
    ),
    (
        "MS COCO",
        _D,
        (
            "COCO",
            "MS COCO",
            "Microsoft COCO",
            "Common Objects in Context",
            "Microsoft Common Objects in Context",
        ),
    ),
    ("SQuAD", _D, ("SQuAD", "Stanford Question Answering Dataset")),
    ("GLUE", _D, ("GLUE", "General Language Understanding Evaluation")),
    ("SuperGLUE", _D, ("SuperGLUE", "Super GLUE")),
    ("Penn Treebank", _D, ("PTB", "Penn Treebank", "Penn TreeBank dataset", "Penn Tree Bank")),
    ("MNIST", _D, ("MNIST", "MNIST handwritten digits")),
    ("Visual Genome", _D, ("Visual Genome", "VG")),
    # Metrics
    ("BLEU", _X, ("BLEU", "BLEU score", "bilingual evaluation understudy")),
    ("ROUGE", _X, ("ROUGE", "ROUGE score", "recall-oriented understudy for gisting evaluation")),
    ("METEOR", _X, ("METEOR", "METEOR score")),
    (
        "F1 score",
        _X,
        (
            "F1",
            "F1 score",
            "F-1",
            "F1 measure",
            "F-measure",
            "F-score",
            "F1-macro",
            "F1 metric",
        ),
    ),
    ("mean average precision", _X, ("mAP", "mean average precision")),
    (
        "area under the ROC curve",
        _X,
        (
            "AUC",
            "AUROC",
            "ROC AUC",
            "ROC-AUC",
            "area under the curve",
            "area under the ROC curve",
            "area under curve",
        ),
    ),
    ("intersection over union", _X, ("IoU", "intersection over union", "Jaccard index")),
    ("word error rate", _X, ("WER", "word error rate")),
    ("perplexity", _X, ("perplexity", "PPL")),
    ("mean squared error", _X, ("MSE", "mean squared error", "mean square error")),
    ("root mean squared error", _X, ("RMSE", "root mean squared error", "root mean square error")),
    ("mean absolute error", _X, ("MAE", "mean absolute error")),
    # "classification accuracy" is what "accuracy" means in these abstracts; top-k
    # accuracy is a different measure (top-5 accuracy >= accuracy), so it stays apart.
    ("accuracy", _X, ("accuracy", "acc", "classification accuracy")),
    ("exact match", _X, ("EM", "exact match", "exact-match score")),
)


@lru_cache(maxsize=1)
def alias_index() -> dict[str, tuple[str, frozenset[str]]]:
    """Matching key -> ``(canonical label, classes)`` for every spelling in :data:`ALIASES`.

    Built on first use (importing the module does no work).

    >>> alias_index()[compact("Generative Adversarial Nets")][0]
    'generative adversarial network'
    """
    index: dict[str, tuple[str, frozenset[str]]] = {}
    for label, classes, spellings in ALIASES:
        for spelling in (label, *spellings):
            index[compact(spelling)] = (label, classes)
    return index


def alias_of(key: str, entity_type: str) -> str | None:
    """The canonical label the matching ``key`` is an alias of, for ``entity_type``.

    >>> alias_of(compact("LLMs"), "Method"), alias_of(compact("LLMs"), "Dataset")
    ('large language model', None)
    """
    found = alias_index().get(key)
    return found[0] if found and entity_type in found[1] else None
