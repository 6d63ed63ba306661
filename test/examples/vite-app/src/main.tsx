import { createRoot } from 'react-dom/client';
import { createApi } from './api';
import { App } from './App';

createRoot(document.getElementById('root')!).render(<App api={createApi()} memberId="mbr_1" />);
