MODULE pick_and_place_demo
  ! robogui export: program 'pick and place demo', robot 'Puma 560'
  ! RAPID; mm, degrees, quaternions scalar first, base frame (wobj0);
  ! see docs/robot-languages.md
  PERS tooldata t_robogui := [TRUE, [[0.000, 0.000, 0.000], [1.000000000, 0.000000000, 0.000000000, 0.000000000]], [0.001, [0, 0, 0.001], [1, 0, 0, 0], 0, 0, 0]];
  CONST jointtarget jt_home := [[0.000000, 90.000000, -90.000000, 0.000000, 0.000000, 0.000000], [9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];
  CONST jointtarget jt_above_pick := [[17.188734, 34.377468, -148.969027, 0.000000, 22.918312, 0.000000], [9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];
  CONST robtarget p_pick := [[[743.495, 72.925, 176.457], [0.688883444, -0.107200355, 0.709300955, 0.104114550]], [0, 0, 0, 0], [9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];
  CONST jointtarget jt_place := [[-22.918312, 34.377468, -148.969027, 0.000000, 22.918312, 0.000000], [9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];
  CONST jointtarget jt_home2 := [[0.000000, 90.000000, -90.000000, 0.000000, 0.000000, 0.000000], [9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];
  CONST speeddata v_250_0 := [250.0, 500, 5000, 1000];
  PROC main()
    ConfJ \On;
    ConfL \On;
    ! move 1: joint -> home
    VelSet 100.0, 5000;
    AccSet 100.0, 100;
    MoveAbsJ jt_home, vmax, fine, t_robogui;
    ! move 2: joint -> above_pick
    MoveAbsJ jt_above_pick, vmax, fine, t_robogui;
    ! move 3: linear -> pick
    MoveL p_pick, v_250_0, fine, t_robogui;
    ! move 4: joint -> place
    MoveAbsJ jt_place, vmax, fine, t_robogui;
    ! move 5: joint -> home2
    MoveAbsJ jt_home2, vmax, fine, t_robogui;
  ENDPROC
ENDMODULE
