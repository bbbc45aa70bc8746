"""One plan per config, made once and passed down: the config as evaluated (its runs outside
RESULTS_DIR, which are inexeval's own outputs), the measures METRICS names, the settings, the
measures' parameters, the table columns, the headline outputs, and the per-topic values a run keeps
once its files are written.  The engine, the API, compare, the report, the stamp and --incremental
read it instead of resolving each of these from the config again.
"""

from __future__ import annotations

from inexeval.config.schema import PARAM_DEFAULTS, Config
from inexeval.errors import ConfigError
from inexeval.measures import registry
from inexeval.measures.registry import Measure, Params, Setting
from inexeval.records import record
from inexeval.resultsdir import runs_outside_results


@record(frozen=True)
class ConfigPlan:
    """What evaluating one config means (see the module notes)."""

    config: Config  # the config as evaluated: its runs are those outside RESULTS_DIR
    ignored: int  # run files under RESULTS_DIR left out
    measures: tuple[Measure, ...]
    settings: tuple[Setting, ...]
    params: Params  # without the collection's average document length (the engine adds it if needed)

    @property
    def columns(self) -> list[str]:
        """The scalar outputs the tables print, in order."""
        return [c for m in self.measures for c in m.scalars(self.params)]

    @property
    def headline(self) -> list[str]:
        """The outputs shown first (HEADLINE): the config's, else the task's that are columns, else those
        the measures declare; none of them a column: every column."""
        columns = self.columns
        if self.config.headline:
            return list(self.config.headline)
        shown = [h for h in self.config.task_def.headline if h in columns]
        shown = shown or [h for m in self.measures for h in m.headline if h in columns]
        return shown or list(columns)

    def kept(self, per_query: bool, topic_curves: bool) -> set[str]:
        """The per-topic values still needed once a run's files are written: with -q the table
        columns, and the curves when per-topic graphs are drawn; without -q none."""
        keep: set[str] = set()
        if not per_query:
            return keep
        for m in self.measures:
            keep.update(m.scalars(self.params))
            if topic_curves:
                for c in m.curves(self.params):
                    keep.update(c.names)
        return keep


def plan_config(config: Config) -> ConfigPlan:
    """The plan of CONFIG (ConfigError for a measure name METRICS cannot resolve)."""
    evaluated, ignored = runs_outside_results(config)
    measures = resolve_measures(evaluated)
    plan = ConfigPlan(evaluated, ignored, tuple(measures), tuple(settings_of(evaluated)),
                      params_of(evaluated, measures))
    if config.headline:
        columns = plan.columns
        unknown = [h for h in config.headline if h not in columns]
        if unknown:
            raise ConfigError(f"HEADLINE: {', '.join(map(repr, unknown))} is not an output of the config's "
                              f"measures ({', '.join(columns)})", config.source, config.line_of("HEADLINE"))
    return plan


def resolve_measures(config: Config) -> list[Measure]:
    """METRICS (or the task's default set) -> registered measures (ConfigError if unknown)."""
    out: list[Measure] = []
    names = config.metrics or tuple(registry.default_metrics(config.strategy))
    for name in names:
        try:
            m = registry.find(name, config.strategy)
        except ConfigError as e:  # a measure-name pattern with a bad parameter
            raise ConfigError(e.message, config.source, config.line_of("METRICS")) from None
        if m is None:
            known = ", ".join(registry.names_for(config.strategy))
            raise ConfigError(f"METRICS: {name!r} is not a measure of task {config.task} (known: {known})",
                              config.source, config.line_of("METRICS"))
        if m not in out:
            out.append(m)
    return out


def settings_of(config: Config) -> list[Setting]:
    if config.task_def.quantised:
        return [Setting(q, o, config.alpha) for q in config.quant_functions for o in config.overlap]
    return [Setting(None, None, config.alpha)]


def params_of(config: Config, measures: list[Measure] | None = None, collection=None) -> Params:
    """The measures' parameters from the config: the Config field of every key the key table marks
    ``param`` (:data:`~inexeval.config.schema.PARAM_DEFAULTS`, the attributes of Params), so that a
    new key is a row of the key table, not a line here.  AVG_DOC_LENGTH, when a measure reads it and
    the config leaves it unset, is the collection's average document length (docs/config.md)."""
    values = {name: getattr(config, name) for name in PARAM_DEFAULTS}
    avg = config.avg_doc_length
    if avg is None and collection is not None and config.collection_dir is not None \
            and any("AVG_DOC_LENGTH" in m.params for m in measures or ()):
        values["avg_doc_length"] = collection.average_length()
    return Params(**values)
