// Waits for a flag nobody sets: never finishes.
__kernel void spin(__global volatile uint *flag)
{
    while (flag[0] == 0)
        ;
}
