// Never finishes: work-item 0 waits for a flag nobody sets. Shows how a
// runaway kernel is stopped by the instruction budget (docs/run.md).
__kernel void spin(__global volatile uint *flag)
{
    while (flag[0] == 0)
        ;
}
