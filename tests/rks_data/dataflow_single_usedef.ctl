# usedef formulas for each variable occurring in the mu property of the PDMU

A G ( ( def__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) --> E F ( use__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) )
