import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ApiTokenGenerationPage() {
  return <ScreenPlaceholder />;
}
