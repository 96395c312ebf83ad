# usedef formulas for each variable occurring in the program

A G ( ( def__i0__in___examples_Dataflow__b_V_ | usedef__i0__in___examples_Dataflow__b_V_ ) --> E F ( use__i0__in___examples_Dataflow__b_V_ | usedef__i0__in___examples_Dataflow__b_V_ ) )
A G ( ( def__i1__in___examples_Dataflow__b_V_ | usedef__i1__in___examples_Dataflow__b_V_ ) --> E F ( use__i1__in___examples_Dataflow__b_V_ | usedef__i1__in___examples_Dataflow__b_V_ ) )
A G ( ( def__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) --> E F ( use__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) )
