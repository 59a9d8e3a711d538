package timing

// LimitAhead has the next run's producer (ahead.go) hand a task over
// live once it has recorded taskBytes, and run at most lookahead tasks
// ahead of the engine, from the second task on, the engine waiting for
// each: tests take the paths a long kernel takes on a short one. The dispatch must be able to run
// ahead (Independent, two host threads or more).
func (e *Engine) LimitAhead(taskBytes, lookahead int) error {
	k := e.disp.kernels[0]
	p, err := newProducer(k.d, k.total, 1, 1)
	if err != nil {
		return err
	}
	p.taskBytes, p.lookahead, p.patient = taskBytes, lookahead, true
	k.ahead = p
	return nil
}

// AheadTasks is how many tasks the last run's producer recorded, and how
// many of them it handed over live.
func (e *Engine) AheadTasks() (recorded, handedOver int) {
	if k := e.disp.kernels[0]; k.ahead != nil {
		return k.ahead.recorded, k.ahead.handedOver
	}
	return 0, 0
}
