"""US Chess Golden Knights correspondence championship, regulations 2017-2020 (seed
``000_34c41d9194c64591.txt``): the rules as numbers (rules), entries (rules 1, 8, 9),
sections (rule 2), results and rulings (rules 2, 7, 11, 12), advancement (rule 3), prizes
and awards (rules 4-6) and the whole event (event)."""
