#version 450
layout(local_size_x = 64) in;
void main()
{
    nothing_here = 1;
}
