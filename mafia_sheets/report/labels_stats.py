"""Words of the statistics sheets, player cards and head to head (SPEC §6 sheets 7–9)."""

from __future__ import annotations

from ..vocab import Name

STATS_SHEETS: dict[str, Name] = {
    "statistics": Name("Статистика", "Statistics"),
    "cards": Name("Карточки", "Player cards"),
    "pairs": Name("Встречи", "Head to head"),
}

ROLE_WORDS: dict[str, Name] = {
    "civilian": Name("Мирный", "Civilian"),
    "sheriff": Name("Шериф", "Sheriff"),
    "mafia": Name("Мафия", "Mafia"),
    "don": Name("Дон", "Don"),
    "red": Name("Красные", "Red"),
    "black": Name("Чёрные", "Black"),
    "all": Name("Всего", "All games"),
}

OUTCOME: dict[str, Name] = {
    "win": Name("победа", "win"),
    "loss": Name("поражение", "loss"),
    "draw": Name("ничья", "draw"),
}

S: dict[str, Name] = {
    "place": Name("Место", "Place"),
    "player": Name("Игрок", "Player"),
    "overall": Name("Все игры", "All games"),
    "games": Name("Игр", "Games"),
    "wins": Name("Побед", "Wins"),
    "win_pct": Name("% побед", "Win %"),
    "additional": Name("Доп. баллы", "Additional"),
    "additional_all": Name("Доп. баллы всего", "Additional, all"),
    "killed_first_night": Name("Убит в 1-ю ночь", "Killed night 1"),
    "best_moves": Name("Лучший ход", "Best move"),
    "bm_made": Name("Сделано", "Made"),
    "bm_three": Name("3 чёрных", "3 blacks"),
    "bm_two": Name("2 чёрных", "2 blacks"),
    "bm_fewer": Name("Меньше", "Fewer"),
    "bm_points": Name("Баллы", "Points"),
    "discipline": Name("Дисциплина", "Discipline"),
    "fouls": Name("Фолы", "Fouls"),
    "fouled_out": Name("Удалён (4 фола)", "Fouled out"),
    "disqualified": Name("Дисквал.", "Disqualified"),
    "awards": Name("ЛИ судьи", "Judge's awards"),
    "bp": Name("ЛИ", "BP"),
    "bp2": Name("ЛИ2", "BP2"),
    "bpl": Name("ЛИП", "BPL"),
    "blank_is_zero": Name("Пустая ячейка — это 0; проценты — доля побед в этих играх",
                          "A blank cell is 0; a percentage is the share of those games won"),
    "sec_tournament": Name("Турнир в цифрах", "The tournament in figures"),
    "sec_colours": Name("Победы по цвету", "Wins by colour"),
    "sec_tables": Name("По столам", "By table"),
    "sec_rounds": Name("По турам", "By round"),
    "sec_seats": Name("По номерам мест", "By seat number"),
    "sec_ended": Name("Как закончились игры: фаза последнего выбывания",
                      "How games ended: phase of the last departure"),
    "table": Name("Стол", "Table"),
    "round": Name("Тур", "Round"),
    "seat": Name("Место", "Seat"),
    "phase": Name("Фаза", "Phase"),
    "nobody_left": Name("никто не выбыл", "nobody left"),
    "red_wins": Name("Побед красных", "Red wins"),
    "red_pct": Name("% красных", "Red %"),
    "black_wins": Name("Побед чёрных", "Black wins"),
    "black_pct": Name("% чёрных", "Black %"),
    "draws": Name("Ничьих", "Draws"),
    "draw_pct": Name("% ничьих", "Draw %"),
    "as_red": Name("Красным: игр", "As red: games"),
    "as_red_wins": Name("Красным: побед", "As red: wins"),
    "as_red_pct": Name("Красным: %", "As red: %"),
    "as_black": Name("Чёрным: игр", "As black: games"),
    "as_black_wins": Name("Чёрным: побед", "As black: wins"),
    "as_black_pct": Name("Чёрным: %", "As black: %"),
    # cards
    "card_title": Name("Место {place} — {player}", "Place {place} — {player}"),
    "card_removed": Name("Удалён с турнира — {player}", "Removed from the tournament — {player}"),
    "total": Name("Итого", "Total"),
    "win_points": Name("За победы", "Win points"),
    "role": Name("Роль", "Role"),
    "result": Name("Итог игры", "Result"),
    "win_point": Name("За победу", "Win points"),
    "best_move": Name("Лучший ход", "Best move"),
    "award": Name("ЛИ", "Award"),
    "penalty": Name("Штраф", "Penalty"),
    "penalties": Name("Штрафы", "Penalties"),
    "bm_count": Name("Лучших ходов", "Best moves"),
    "bm_points_long": Name("Баллы за лучший ход", "Best-move points"),
    # head to head
    "player_a": Name("Игрок A", "Player A"),
    "player_b": Name("Игрок B", "Player B"),
    "met": Name("Игр за одним столом", "Games at one table"),
    "together": Name("В одной команде", "Same team"),
    "together_wins": Name("Из них побед", "Won together"),
    "against": Name("Друг против друга", "Opposite teams"),
    "a_won": Name("Побед A", "A won"),
    "b_won": Name("Побед B", "B won"),
    "pair_draws": Name("Ничьих", "Draws"),
    "pairs_note": Name("Пары, сыгравшие за одним столом; сначала те, кто сыграл больше игр "
                       "вместе. A — игрок выше в итогах.",
                       "Pairs who sat at one table, most games together first. A is the "
                       "player placed higher."),
    "pairs_cut": Name("Показаны {shown} пар с наибольшим числом игр из {total}.",
                      "The {shown} pairs with the most games of {total} are shown."),
    # standings over time
    "over_time": Name("Итоги лидеров по ходу турнира", "The leaders' totals over time"),
    "step_round": Name("После тура", "After round"),
    "step_file": Name("После игрового вечера", "After game night"),
    "step_game": Name("После игры", "After game"),
}
