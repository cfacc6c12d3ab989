package otelexport

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// iter is one iteration's events, in log order.
type iter struct {
	id  string
	evs []ev
}

// iterationOf returns the iteration id a payload names, "" for none.
func iterationOf(p events.Payload) string {
	switch p := p.(type) {
	case events.IterationStart:
		return p.IterationID
	case events.ActorStart:
		return p.IterationID
	case events.ActorComplete:
		return p.IterationID
	case events.JuryEmpaneled:
		return p.IterationID
	case events.JudgeStart:
		return p.IterationID
	case events.Verdict:
		return p.IterationID
	case events.ConsensusReached:
		return p.IterationID
	case events.DissentRecorded:
		return p.IterationID
	case events.MetaStart:
		return p.IterationID
	case events.MetaComplete:
		return p.IterationID
	case events.GatePassed:
		return p.IterationID
	case events.GateBlocked:
		return p.IterationID
	}
	return ""
}

// iterations groups the events by iteration, in the order the iterations
// started; an event whose optional iteration_id is unset belongs to the
// iteration under way.
func (b *builder) iterations() []*iter {
	var out []*iter
	byID := map[string]*iter{}
	var cur *iter
	for _, e := range b.evs {
		switch e.p.(type) {
		case events.SessionStart, events.SessionComplete:
			continue
		}
		id := iterationOf(e.p)
		if id == "" {
			if cur == nil {
				continue
			}
			id = cur.id
		}
		it := byID[id]
		if it == nil {
			it = &iter{id: id}
			byID[id] = it
			out = append(out, it)
		}
		it.evs = append(it.evs, e)
		cur = it
	}
	return out
}

// pair is a span's opening and closing events (either may be missing).
type pair struct{ open, close *ev }

// phases sorts an iteration's events into its parts.
type phases struct {
	start             *ev
	actor, meta, gate pair
	judges            map[string]*pair
	judgeOrder        []string
	jury              *events.JuryEmpaneled
	consensus         *ev
	dissent           *ev
}

func sortPhases(it *iter) *phases {
	ph := &phases{judges: map[string]*pair{}}
	judge := func(id string) *pair {
		if ph.judges[id] == nil {
			ph.judges[id] = &pair{}
			ph.judgeOrder = append(ph.judgeOrder, id)
		}
		return ph.judges[id]
	}
	for i := range it.evs {
		e := &it.evs[i]
		switch p := e.p.(type) {
		case events.IterationStart:
			ph.start = e
		case events.ActorStart:
			if ph.actor.open == nil {
				ph.actor.open = e
			}
		case events.ActorComplete:
			ph.actor.close = e
		case events.JuryEmpaneled:
			ph.jury = &p
		case events.JudgeStart:
			judge(p.JudgeID).open = e
		case events.Verdict:
			judge(p.JudgeID).close = e
		case events.ConsensusReached:
			ph.consensus = e
		case events.DissentRecorded:
			ph.dissent = e
		case events.MetaStart:
			ph.meta.open = e
		case events.MetaComplete:
			ph.meta.close = e
		case events.GatePassed, events.GateBlocked:
			ph.gate.close = e
		}
	}
	return ph
}

// iteration makes an iteration's span and its children.
func (b *builder) iteration(parent context.Context, it *iter) {
	ph := sortPhases(it)
	first, last := it.evs[0].rec.Timestamp, it.evs[len(it.evs)-1].rec.Timestamp
	var a attrs
	a.str(keyIterID, it.id)
	name := "iteration"
	if ph.start != nil {
		p := ph.start.p.(events.IterationStart)
		a.int(keyIterNumber, &p.IterationNumber)
		a.str(keyTrigger, p.Trigger)
		a.str(keyEventID, ph.start.rec.ID)
		name = fmt.Sprintf("iteration %d", p.IterationNumber+1)
	}
	if ph.jury != nil {
		a.int(keyPanelSize, ph.jury.PanelSize)
	}
	if ph.consensus != nil {
		p := ph.consensus.p.(events.ConsensusReached)
		a.num(keyConsensus, &p.AggregatedScore)
		a.str(keyMethod, string(p.AggregationMethod))
		a.bool(keyConsPassed, p.Passed)
	}
	if ph.dissent != nil {
		p := ph.dissent.p.(events.DissentRecorded)
		a.num(keyDissent, &p.DisagreementScore)
	}
	ctx, span := b.start(parent, "iteration/"+it.id, name, first, trace.SpanKindInternal, a)
	for _, e := range []*ev{ph.consensus, ph.dissent} {
		if e != nil {
			span.AddEvent(e.rec.EventType, trace.WithTimestamp(e.rec.Timestamp),
				trace.WithAttributes(attribute.String(keyEventID, e.rec.ID)))
		}
	}
	calls := b.t.Calls[it.id]
	b.actor(ctx, it.id, ph.actor, last, callsFor(calls, "actor", ""))
	for _, id := range ph.judgeOrder {
		b.judge(ctx, it.id, id, *ph.judges[id], last, callsFor(calls, "judge", id))
	}
	b.meta(ctx, it.id, ph.meta, last, callsFor(calls, "meta", ""))
	b.gate(ctx, it, ph.gate.close)
	span.End(trace.WithTimestamp(last))
}

// callsFor is the records of one role's calls (one judge's for a judge).
func callsFor(calls []Call, role, judgeID string) []Call {
	var out []Call
	for _, c := range calls {
		if c.Role == role && (judgeID == "" || c.JudgeID == judgeID) {
			out = append(out, c)
		}
	}
	return out
}

// bounds is a span's start and end: its events' times, the iteration's
// end when the closing event is missing.
func bounds(p pair, fallback time.Time) (time.Time, time.Time) {
	end := fallback
	if p.close != nil {
		end = p.close.rec.Timestamp
	}
	start := end
	if p.open != nil {
		start = p.open.rec.Timestamp
	}
	return start, end
}

// usage adds an event's envelope cost and tokens.
func (a *attrs) usage(e *ev) {
	if e == nil {
		return
	}
	a.num(keyCost, e.rec.CostUSD)
	a.int(keyTokens, e.rec.TokenCount)
	a.str(keyEventID, e.rec.ID)
}

func (b *builder) actor(parent context.Context, iterID string, p pair, fallback time.Time, calls []Call) {
	if p.open == nil && p.close == nil {
		return
	}
	start, end := bounds(p, fallback)
	var a attrs
	var model string
	if p.open != nil {
		model = p.open.p.(events.ActorStart).ActorModelID
	}
	var done *events.ActorComplete
	if p.close != nil {
		c := p.close.p.(events.ActorComplete)
		done = &c
		if model == "" {
			model = c.ActorModelID
		}
		a.bool(keySuccess, c.Success)
		a.str(keyArtifact, c.ArtifactKind)
		a.int(keyDuration, c.DurationMS)
	}
	a.model("invoke_agent", "claude", model)
	a.str(keyAgent, "actor")
	a.usage(p.close)
	ctx, span := b.start(parent, "actor/"+iterID, "invoke_agent actor", start, trace.SpanKindInternal, a)
	switch {
	case done == nil:
		span.SetStatus(codes.Error, "no tribunal.actor.complete recorded")
	case !done.Success:
		span.SetStatus(codes.Error, "the actor failed")
	}
	b.calls(ctx, "actor/"+iterID, start, calls, true)
	span.End(trace.WithTimestamp(end))
}

func (b *builder) judge(parent context.Context, iterID, judgeID string, p pair, fallback time.Time, calls []Call) {
	start, end := bounds(p, fallback)
	var a attrs
	a.str(keyJudgeID, judgeID)
	var jtype, model string
	if p.open != nil {
		s := p.open.p.(events.JudgeStart)
		jtype, model = s.JudgeType, s.JudgeModelID
	}
	var v *events.Verdict
	if p.close != nil {
		x := p.close.p.(events.Verdict)
		v = &x
		jtype = x.JudgeType
		if model == "" {
			model = x.JudgeModelID
		}
		a.num(keyScore, &x.Score)
		a.bool(keyPassed, x.Passed)
		a.num(keyConfidence, x.Confidence)
		for _, k := range sortedKeys(x.CriterionScores) {
			s := x.CriterionScores[k]
			a.num(keyCriterion+k, &s)
		}
	}
	provider := ""
	if len(calls) > 0 {
		provider = calls[0].Provider
	}
	a.model("invoke_agent", provider, model)
	a.str(keyAgent, "judge "+jtype)
	a.str(keyJudgeType, jtype)
	a.usage(p.close)
	ctx, span := b.start(parent, "judge/"+iterID+"/"+judgeID, "invoke_agent judge "+jtype, start, trace.SpanKindInternal, a)
	if v == nil {
		span.SetStatus(codes.Error, "no verdict: the judge failed or gave no usable score")
	}
	b.calls(ctx, "judge/"+iterID+"/"+judgeID, start, calls, false)
	span.End(trace.WithTimestamp(end))
}

func (b *builder) meta(parent context.Context, iterID string, p pair, fallback time.Time, calls []Call) {
	if p.open == nil && p.close == nil {
		return
	}
	start, end := bounds(p, fallback)
	var a attrs
	var model string
	if p.open != nil {
		model = p.open.p.(events.MetaStart).MetaModelID
	}
	if p.close != nil {
		m := p.close.p.(events.MetaComplete)
		if model == "" {
			model = m.MetaModelID
		}
		a.str(keyQuality, m.VerdictQuality)
		a.bool(keyBias, m.BiasDetected)
		a.strs(keyBiasTypes, m.BiasTypes)
		a.str(keyOverride, m.OverrideRecommendation)
		a.num(keyConfidence, m.Confidence)
	}
	provider := ""
	if len(calls) > 0 {
		provider = calls[0].Provider
	}
	a.model("invoke_agent", provider, model)
	a.str(keyAgent, "meta-judge")
	a.usage(p.close)
	ctx, span := b.start(parent, "meta/"+iterID, "invoke_agent meta-judge", start, trace.SpanKindInternal, a)
	if p.close == nil {
		span.SetStatus(codes.Error, "no tribunal.meta.complete recorded")
	}
	b.calls(ctx, "meta/"+iterID, start, calls, true)
	span.End(trace.WithTimestamp(end))
}

// calls makes one client span per recorded model call under parent. The
// records keep durations, not start times: sequential calls (the actor's
// attempts) follow one another from start, parallel ones (a judge's reps)
// all begin at start.
func (b *builder) calls(parent context.Context, key string, start time.Time, calls []Call, sequential bool) {
	at := start
	for i, c := range calls {
		var a attrs
		a.model("chat", c.Provider, c.Model)
		a.str(keyRole, c.Role)
		a.str(keyJudgeID, c.JudgeID)
		a.int(keyRep, c.Rep)
		if c.Attempt > 0 {
			a.int(keyAttempt, &c.Attempt)
		}
		a.str(keyCallProv, c.Provider)
		a.str(keyBash, c.Bash)
		a.num(keyCost, c.CostUSD)
		a.int(keyTokens, c.Usage.Tokens)
		a.int(keyInputTokens, c.Usage.InputTokens)
		a.int(keyOutputTokens, c.Usage.OutputTokens)
		if c.Usage.NumTurns > 0 {
			a.int(keyTurns, &c.Usage.NumTurns)
		}
		a.int(keyExitCode, &c.Usage.ExitCode)
		a.str(keyCallFile, c.File)
		d := time.Duration(max(c.Usage.DurationMS, 0)) * time.Millisecond
		name := "chat"
		if c.Model != "" {
			name += " " + c.Model
		}
		_, span := b.start(parent, key+"/call/"+strconv.Itoa(i), name, at, trace.SpanKindClient, a)
		if c.Error != "" {
			span.SetStatus(codes.Error, c.Error)
		}
		span.End(trace.WithTimestamp(at.Add(d)))
		if sequential {
			at = at.Add(d)
		}
	}
}

// gate makes the gate decision's span: from the iteration's previous
// event (what the decision was made after) to the decision.
func (b *builder) gate(parent context.Context, it *iter, g *ev) {
	if g == nil {
		return
	}
	start := g.rec.Timestamp
	for i := range it.evs {
		if it.evs[i].rec == g.rec && i > 0 {
			start = it.evs[i-1].rec.Timestamp
		}
	}
	var a attrs
	a.str(keyIterID, it.id)
	a.str(keyEventID, g.rec.ID)
	switch p := g.p.(type) {
	case events.GatePassed:
		a.str(keyDecision, "passed")
		a.num(keyFinalScore, &p.FinalScore)
		a.int(keyIterNumber, p.IterationNumber)
		a.int(keyConsulted, p.JudgesConsulted)
	case events.GateBlocked:
		a.str(keyDecision, "blocked")
		a.str(keyReason, string(p.Reason))
		a.num(keyFinalScore, p.FinalScore)
		a.int(keyIterNumber, p.IterationNumber)
		if p.WillRetry != nil {
			a.bool(keyWillRetry, *p.WillRetry)
		}
		a.str(keyFailedCrit, p.FailedCriterion)
	}
	_, span := b.start(parent, "gate/"+it.id, "gate", start, trace.SpanKindInternal, a)
	span.End(trace.WithTimestamp(g.rec.Timestamp))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
