"""Training and scoring of the trained extraction models (``kg train``, ``kg eval``).

The runtime components live in :mod:`kg.extract.scierc` and never import this
package; scikit-learn, used to fit the relation classifier, comes with the
``train`` extra. :func:`kg.training.train.train_scierc` and
:func:`kg.training.evaluate.evaluate_scierc` are the entry points; the models
are written to the folder the caller names, never into the installed package.
"""
